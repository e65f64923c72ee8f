import { type DataRequest, type Database, type Frag, frag, joinFrags, type StatisticsApi } from '../../../core';
import type { Funnel } from './funnel';
import type { FunnelStep, FunnelStepFigures } from './shapes';

/** `*` is any run of characters; `%`, `_` and `!` of the pattern match themselves. */
export const likePattern = (page: string): string => page.replace(/[!%_]/g, (c) => `!${c}`).replace(/\*/g, '%');

const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 10000) / 100 : 0);

/** The SQL condition of one step over the pageview `s`. */
function stepCondition(db: Database, step: FunnelStep): Frag {
  if ('goal' in step) {
    // Not correlated: both databases read the goal's completions once (goal_id index), not once per pageview.
    return frag(`s.ID IN (SELECT fg.statistic_id FROM ${db.quote(db.table('goal_statistics'))} fg WHERE fg.goal_id = ?)`, [step.goal]);
  }
  return frag("s.page_url LIKE ? ESCAPE '!'", [likePattern(step.page)]);
}

/**
 * Each step's visitors for the request's period, site and filters. A
 * session reaches a step when, at the pageview that reached the step before
 * or later, one of its pageviews matches it (the pageview of a page step can
 * also complete the following goal step); a visitor counts at a step when any
 * of their sessions of the period reached it. Only the pageviews matching
 * some step are read, in session and time order.
 */
export async function funnelFigures(db: Database, stats: StatisticsApi, siteId: number, req: DataRequest, funnel: Funnel, labels: readonly string[]): Promise<FunnelStepFigures[]> {
  const conditions = funnel.steps.map((s) => stepCondition(db, s));
  const mask = joinFrags(conditions.map((c, i) => frag(`CASE WHEN ${c.sql} THEN ${2 ** i} ELSE 0 END`, c.params)), ' + ');
  const any = joinFrags(conditions, ' OR ');
  const from = stats.hitsFrom({ siteId, range: req.range, status: req.status, filters: req.filters });
  const rows = await db.select<{ sid: number | string; uid: string; m: number | string }>(
    `SELECT s.session_id AS sid, s.uid AS uid, ${mask.sql} AS m ${from.sql} AND (${any.sql}) ORDER BY s.session_id, s.time, s.ID`,
    [...mask.params, ...from.params, ...any.params],
  );
  const reachedBy = new Map<string, number>();
  let session: string | null = null;
  let next = 0;
  for (const row of rows) {
    const sid = String(row.sid);
    if (sid !== session) {
      session = sid;
      next = 0;
    }
    const m = Number(row.m);
    while (next < conditions.length && (m & (2 ** next)) !== 0) next++;
    if (next > (reachedBy.get(row.uid) ?? 0)) reachedBy.set(row.uid, next);
  }
  const counts = conditions.map((_, i) => [...reachedBy.values()].filter((n) => n > i).length);
  return counts.map((visitors, i) => {
    const before = i === 0 ? visitors : counts[i - 1]!;
    return {
      step: i + 1,
      label: labels[i] ?? '',
      visitors,
      conversion_rate: percent(visitors, counts[0]!),
      drop_off: before - visitors,
      drop_off_rate: percent(before - visitors, before),
    };
  });
}
