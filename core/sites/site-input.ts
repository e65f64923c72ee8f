import { isTimezone } from '../config';
import { FieldProblems } from '../field-problems';
import { isDomainName, normalizeHost } from './hosts';
import type { Site, SiteInput } from './types';

/** The hosts one site claims: its domain and aliases. */
export const hostsOf = (site: Pick<Site, 'domain' | 'aliases'>): string[] => [...(site.domain ? [site.domain] : []), ...site.aliases];

/**
 * A site's fields checked and normalized (hosts lower case, without port or
 * `www.`): the name, each host's syntax, the time zone, and no host claimed by
 * another site. One 400 names every refused field.
 */
export function checkedSite(input: SiteInput, current: Omit<Site, 'id'>, others: readonly Site[]): Omit<Site, 'id'> {
  const problems = new FieldProblems();
  const name = (input.name ?? current.name).trim();
  if (name === '' || name.length > 190) problems.add('name', 'must be 1 to 190 characters');
  const domain = input.domain === undefined ? current.domain : input.domain === null || input.domain.trim() === '' ? null : normalizeHost(input.domain);
  if (domain !== null && !isDomainName(domain)) problems.add('domain', `not a domain name (${domain})`);
  const aliases = [...new Set((input.aliases ?? current.aliases).map(normalizeHost).filter((a) => a !== '' && a !== domain))];
  const badAlias = aliases.find((a) => !isDomainName(a));
  if (badAlias !== undefined) problems.add('aliases', `not a domain name (${badAlias})`);
  if (aliases.length > 0 && domain === null) problems.add('aliases', 'set the domain first');
  const timezone = (input.timezone ?? current.timezone).trim();
  if (!isTimezone(timezone)) problems.add('timezone', `unknown IANA time zone: ${timezone}`);
  const taken = new Map(others.flatMap((s) => hostsOf(s).map((h) => [h, s] as const)));
  if (domain !== null && taken.has(domain)) problems.add('domain', `already used by the site ${taken.get(domain)!.name} (${domain})`);
  const takenAlias = aliases.find((a) => taken.has(a));
  if (takenAlias !== undefined) problems.add('aliases', `already used by the site ${taken.get(takenAlias)!.name} (${takenAlias})`);
  problems.throwIfAny();
  return { name, domain, aliases, timezone };
}
