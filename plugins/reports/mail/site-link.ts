import { DEFAULT_SITE_ID, type Site } from '../../../core';

/** A dashboard link of a report mail, opening the admin on the report's site (`?site=`; the default site needs none). */
export function onSite(url: string, site: Site): string {
  if (site.id === DEFAULT_SITE_ID) return url;
  const link = new URL(url);
  link.searchParams.set('site', String(site.id));
  return link.toString();
}
