import type { IncomingHttpHeaders } from 'node:http';
import ipaddr from 'ipaddr.js';

/** Server variables of tracking.md §7 in priority order, as request header names. */
const IP_HEADERS = ['cf-connecting-ip', 'true-client-ip', 'x-forwarded-for', 'x-real-ip', 'x-cluster-client-ip', 'client-ip'] as const;

const MAPPED_PREFIX = '::ffff:';

/** Whether `text` starts with `::ffff:` in any case. */
function isMapped(text: string): boolean {
  if (text.length < MAPPED_PREFIX.length + 7) return false;
  for (let i = 0; i < MAPPED_PREFIX.length; i++) if ((text.charCodeAt(i) | 0x20) !== MAPPED_PREFIX.charCodeAt(i)) return false;
  return true;
}

/**
 * The usual address — a plain IPv4 one or the socket's IPv4-mapped form
 * (`::ffff:127.0.0.1`) — as its canonical IPv4 text without parsing it as
 * IPv6: four decimal parts of at most 255 without leading zeros, read
 * character by character (every hit comes here); null for anything else.
 */
function dottedQuad(text: string): string | null {
  const start = isMapped(text) ? MAPPED_PREFIX.length : 0;
  let parts = 0;
  let value = 0;
  let digits = 0;
  for (let i = start; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) {
      if (digits > 0 && value === 0) return null;
      value = value * 10 + (c - 48);
      if (++digits > 3 || value > 255) return null;
    } else if (c === 46 && digits > 0 && parts < 4) {
      parts++;
      value = 0;
      digits = 0;
    } else {
      return null;
    }
  }
  if (parts !== 4) return null;
  return start === 0 ? text : text.slice(start);
}

/** A valid address in canonical form (IPv4-mapped IPv6 becomes IPv4), or null. */
export function normaliseIp(value: string): string | null {
  let text = value.trim();
  const quad = dottedQuad(text);
  if (quad !== null) return quad;
  if (text.startsWith('[')) text = text.slice(1, text.indexOf(']') > 0 ? text.indexOf(']') : undefined);
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  if (!ipaddr.isValid(text)) return null;
  const addr = ipaddr.process(text);
  if (addr.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(text) && !text.includes(':')) return null;
  return addr.toString();
}

/** Addresses already classified; visitors send many hits from one address. Emptied when full. */
const publicity = new Map<string, boolean>();
const MAX_REMEMBERED = 10_000;

/** Public means routable on the internet: not private, loopback, link-local, reserved... */
export function isPublicIp(ip: string): boolean {
  const known = publicity.get(ip);
  if (known !== undefined) return known;
  let result: boolean;
  try {
    result = (dottedQuad(ip) !== null ? ipaddr.IPv4.parse(ip) : ipaddr.process(ip)).range() === 'unicast';
  } catch {
    result = false;
  }
  if (publicity.size >= MAX_REMEMBERED) publicity.clear();
  publicity.set(ip, result);
  return result;
}

/**
 * The visitor IP per tracking.md §7: the first public address in header
 * priority order (leftmost first within X-Forwarded-For), else the first
 * valid one, else ''. The socket's address is looked at only when no header
 * gave a public one. `throughProxies` is the kernel's answer when
 * SVC_TRUST_PROXY names the proxies (ctx.http.clientAddress): then it alone
 * counts, since forwarded headers are believed only from those proxies.
 */
export function resolveVisitorIp(headers: IncomingHttpHeaders, remoteAddress: string | undefined, throughProxies: string | null = null): string {
  if (throughProxies !== null) return normaliseIp(throughProxies) ?? '';
  let first = '';
  for (const name of IP_HEADERS) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw.join(',') : raw;
    // X-Forwarded-For lists client first; every header may carry a list.
    for (const part of text.includes(',') ? text.split(',') : [text]) {
      const ip = normaliseIp(part);
      if (ip === null) continue;
      if (isPublicIp(ip)) return ip;
      first ||= ip;
    }
  }
  const remote = remoteAddress ? normaliseIp(remoteAddress) : null;
  if (remote !== null && (first === '' || isPublicIp(remote))) return remote;
  return first;
}

/** Matches addresses against IPs and CIDR ranges (IPv4-mapped IPv6 compared as IPv4). */
export class IpMatcher {
  private readonly ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const text = entry.trim();
      if (!text) continue;
      try {
        if (text.includes('/')) {
          const [addr, bits] = ipaddr.parseCIDR(text);
          this.ranges.push(addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? [(addr as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] : [addr, bits]);
        } else {
          const addr = ipaddr.process(text);
          this.ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
        }
      } catch {
        // Entries are validated when saved; a filter may still add junk, which is skipped.
      }
    }
  }

  get size(): number {
    return this.ranges.length;
  }

  matches(ip: string): boolean {
    if (this.ranges.length === 0 || !ip) return false;
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      addr = ipaddr.process(ip);
    } catch {
      return false;
    }
    return this.ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
  }
}
