import type { PluginContext } from '../../../core';

/** A visitor is live when a pageview of theirs was seen or updated within this many seconds. */
export const LIVE_WINDOW = 300;
/** Hits older than the session window cannot still be updating. */
const LOOKBACK = 1800;

export async function liveVisitors(ctx: PluginContext): Promise<number> {
  const now = ctx.clock.unix();
  const [row] = await ctx.db.select<{ n: number }>(
    `SELECT COUNT(DISTINCT s.uid) AS n FROM ${ctx.db.quote(ctx.db.table('statistics'))} s WHERE s.time >= ? AND s.time + s.time_on_page >= ? AND s.page_type <> '404'`,
    [now - LOOKBACK, now - LIVE_WINDOW],
  );
  return Number(row?.n ?? 0);
}
