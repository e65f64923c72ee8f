import { type SitesApi, type Soon, soonThen } from '../../../core';

/** A `site` field naming a site id: a positive whole number or its digits; anything else names none (0). */
function siteField(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

/**
 * The site a hit counts for: the one its `site` field names (the snippet of a
 * site other than the default one sends it), else the one whose domains match
 * the page host (`ctx.sites.forHost`). Null when there is none: an unknown id,
 * or a host no site claims once every site has its domain set. Both lookups
 * read the in-memory list of sites, at once while it is fresh.
 */
export class SiteOfHit {
  constructor(private readonly sites: Pick<SitesApi, 'getSoon' | 'forHostSoon'>) {}

  of(field: unknown, host: string): Soon<number | null> {
    const id = siteField(field);
    if (id === null) return soonThen(this.sites.forHostSoon(host), (site) => (site === 'unknown' ? null : site.id));
    return id > 0 ? soonThen(this.sites.getSoon(id), (site) => site?.id ?? null) : null;
  }
}
