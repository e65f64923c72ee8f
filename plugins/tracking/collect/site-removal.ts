import type { Database } from '../../../core';

/** Tables joined to pageviews by `statistic_id`; their rows have no site of their own. */
const PAGEVIEW_JOINS = ['goal_statistics', 'statistics_searches', 'statistics_external_links'] as const;

/**
 * Before a removed site's pageviews go (the kernel deletes every row with its
 * `site_id`), the rows joined to them: goal completions, searches, outbound links.
 */
export async function removeSitePageviewJoins(db: Database, siteId: number): Promise<void> {
  const q = (name: string) => db.quote(db.table(name));
  const pageviews = `SELECT ID FROM ${q('statistics')} WHERE site_id = ?`;
  for (const table of PAGEVIEW_JOINS) await db.execute(`DELETE FROM ${q(table)} WHERE statistic_id IN (${pageviews})`, [siteId]);
}
