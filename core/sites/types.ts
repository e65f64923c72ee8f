/** The site every install has from its first start; it can never be removed. */
export const DEFAULT_SITE_ID = 1;

/** A website served by this install (table `sites`). */
export interface Site {
  id: number;
  name: string;
  /** Primary host, lower case, without port; null until set. */
  domain: string | null;
  /** Further hosts of the same site. */
  aliases: readonly string[];
  /** IANA time zone of the site's days and schedules. */
  timezone: string;
}

/** A person's role on one site (table `site_roles`). */
export type SiteRole = 'manager' | 'viewer';

export const SITE_ROLES: readonly SiteRole[] = ['manager', 'viewer'];

/** What may change on a site; absent fields keep their value. */
export interface SiteInput {
  name?: string;
  domain?: string | null;
  aliases?: readonly string[];
  timezone?: string;
}
