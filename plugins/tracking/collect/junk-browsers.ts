import type { Database, ObjectCache } from '../../../core';
import { LookupIds } from './lookups';
import { isAllowedBrowser } from './user-agent';

/**
 * Weekly cleanup (tracking.md §2.3): browser rows whose name is not one the
 * parser can emit are removed with their sessions, pageviews and joins.
 */
export async function removeJunkBrowsers(db: Database, cache: ObjectCache): Promise<{ browsers: number; sessions: number; pageviews: number }> {
  const q = (name: string) => db.quote(db.table(name));
  const rows = await db.select<{ ID: number; name: string }>(`SELECT ID, name FROM ${q('browsers')}`);
  const junk = rows.filter((r) => !isAllowedBrowser(r.name)).map((r) => Number(r.ID));
  if (junk.length === 0) return { browsers: 0, sessions: 0, pageviews: 0 };
  const ids = junk.map(() => '?').join(', ');
  const sessionsOf = `SELECT ID FROM ${q('sessions')} WHERE browser_id IN (${ids})`;
  const pageviewsOf = `SELECT ID FROM ${q('statistics')} WHERE session_id IN (${sessionsOf})`;
  const result = await db.transaction(async (t) => {
    for (const join of ['goal_statistics', 'statistics_searches', 'statistics_external_links']) {
      await db.execute(`DELETE FROM ${q(join)} WHERE statistic_id IN (${pageviewsOf})`, junk, t);
    }
    const pageviews = await db.execute(`DELETE FROM ${q('statistics')} WHERE session_id IN (${sessionsOf})`, junk, t);
    const sessions = await db.execute(`DELETE FROM ${q('sessions')} WHERE browser_id IN (${ids})`, junk, t);
    const browsers = await db.execute(`DELETE FROM ${q('browsers')} WHERE ID IN (${ids})`, junk, t);
    return { browsers, sessions, pageviews };
  });
  cache.delete(LookupIds.cacheKey('browsers'), 'svc');
  return result;
}
