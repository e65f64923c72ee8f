import type { IncomingHttpHeaders } from 'node:http';

/** express's compiled `trust proxy` setting: whether the address `hop` steps from the server is a trusted proxy. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * The client's address as trusted proxies report it, the way express reads
 * `req.ip`: starting at the connection's own address, each trusted proxy
 * hands over to the address before it in `X-Forwarded-For`; the first
 * address that is not a trusted proxy is the client. A connection that does
 * not come from a trusted proxy is the client itself, whatever it claims.
 */
export function trustedClientAddress(trust: TrustProxy, headers: IncomingHttpHeaders, remoteAddress: string | undefined): string {
  const header = headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((a) => a.trim()).filter(Boolean);
  const hops = [remoteAddress ?? '', ...forwarded.reverse()];
  for (let hop = 0; hop < hops.length - 1; hop++) if (!trust(hops[hop]!, hop)) return hops[hop]!;
  return hops[hops.length - 1]!;
}
