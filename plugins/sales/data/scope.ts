import type { Database, StatsFilter, TimeRange } from '../../../core';
import { tbl } from '../db';

/** Visitor dimensions shop rows reach through their session (tracking's schema). */
export type VisitorDimension = 'country' | 'device';
export const VISITOR_FILTERS: readonly VisitorDimension[] = ['country', 'device'];

/** Filters of the subscription types and `subscription_products`: the subscription's billing country (no visit, so no device). */
export const SUBSCRIPTION_FILTERS: readonly string[] = ['country'];

export const DIMENSION_SQL: Readonly<Record<VisitorDimension, string>> = {
  country: "COALESCE(loc.country_code, '')",
  device: "COALESCE(dv.name, '')",
};

/** The site, window (in the site's timezone) and visitor filters a shop query is scoped to. */
export interface Scope {
  siteId: number;
  range: TimeRange;
  timezone: string;
  filters: readonly StatsFilter[];
}

/**
 * LEFT JOINs from rows of `alias` (which carry `session_id`) to the visitor's
 * session (`ses`), location (`loc`) and device (`dv`), as far as `dims` need;
 * `alias` null means the rows are sessions themselves, aliased `ses`.
 */
export function visitorJoins(db: Database, alias: string | null, dims: Iterable<VisitorDimension>): string {
  const wanted = new Set(dims);
  if (wanted.size === 0) return '';
  const parts = alias ? [`LEFT JOIN ${tbl(db, 'sessions')} ses ON ses.ID = ${alias}.session_id`] : [];
  if (wanted.has('country')) parts.push(`LEFT JOIN ${tbl(db, 'locations')} loc ON loc.city_code = ses.city_code`);
  if (wanted.has('device')) parts.push(`LEFT JOIN ${tbl(db, 'devices')} dv ON dv.ID = ses.device_id`);
  return parts.join(' ');
}

/** The visitor dimensions a scope filters on. */
export const filterDims = (scope: Scope): VisitorDimension[] => scope.filters.map((f) => f.dimension as VisitorDimension);
