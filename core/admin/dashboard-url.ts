/**
 * Links into the dashboard pages. A page keeps its view in its query string
 * (`range`, `date_start`, `date_end`, `filters`) and reads it back on load
 * (core/assets/client/range.ts uses `viewQuery` too), so a link built here
 * opens on the period and filters it names, not on the default 30 days.
 * Free of node and DOM dependencies: the browser bundle shares it.
 */

import type { FilterOperator } from '../statistics/types';

/** One filter of a view: a value (`is`), or an operator with its values (README "Filter operators"). */
export type ViewFilter = string | { operator: FilterOperator; value: string[] };

/** The period (site-timezone days, YYYY-MM-DD) and filters a dashboard page shows. */
export interface DashboardView {
  /** A preset id (`last_30_days` …) or `custom` for the days given. */
  preset: string;
  dateStart: string;
  dateEnd: string;
  filters: Record<string, ViewFilter>;
}

/** The query string of a view: `?range=custom&date_start=…&date_end=…&filters=…` (days only for `custom`). */
export function viewQuery(view: DashboardView): string {
  const params = new URLSearchParams({ range: view.preset });
  if (view.preset === 'custom') {
    params.set('date_start', view.dateStart);
    params.set('date_end', view.dateEnd);
  }
  if (Object.keys(view.filters).length) params.set('filters', JSON.stringify(view.filters));
  return `?${params.toString()}`;
}

/**
 * Absolute URL of dashboard page `page` (an admin path such as
 * `/svc-admin/sales`, or an absolute URL) opening on the days `dateStart` to
 * `dateEnd` with `filters`, scrolled to `section` when given, on site
 * `site` (left out for the default site, id 1, so its links stay as they were).
 */
export function dashboardUrl(
  baseUrl: string,
  page: string,
  period: { dateStart: string; dateEnd: string },
  options: { filters?: Record<string, string>; section?: string; site?: number } = {},
): string {
  const target = /^https?:\/\//.test(page) ? page : `${baseUrl}${page.startsWith('/') ? '' : '/'}${page}`;
  const url = new URL(target);
  const query = new URLSearchParams(viewQuery({ preset: 'custom', ...period, filters: options.filters ?? {} }));
  for (const [key, value] of query) url.searchParams.set(key, value);
  if (options.site !== undefined && options.site !== 1) url.searchParams.set('site', String(options.site));
  if (options.section) url.hash = options.section;
  return url.toString();
}
