import { Resolver } from 'node:dns/promises';

export interface DomainResolver {
  resolveMx(domain: string): Promise<unknown[]>;
  resolve4(domain: string): Promise<unknown[]>;
  resolve6(domain: string): Promise<unknown[]>;
}

export function createResolver(servers: string[] | null, timeoutMs = 5000): DomainResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers?.length) resolver.setServers(servers);
  return resolver;
}

const EMAIL_RE = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/;

async function hasRecords(lookup: Promise<unknown[]>): Promise<boolean> {
  try {
    return (await lookup).length > 0;
  } catch {
    return false;
  }
}

/** True when the address's domain can receive mail: an MX record, else an A or AAAA record. */
export async function recipientDomainIsValid(resolver: DomainResolver, email: string): Promise<boolean> {
  const domain = EMAIL_RE.exec(email.trim())?.[1]?.toLowerCase();
  if (!domain) return false;
  if (await hasRecords(resolver.resolveMx(domain))) return true;
  if (await hasRecords(resolver.resolve4(domain))) return true;
  return hasRecords(resolver.resolve6(domain));
}
