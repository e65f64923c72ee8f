import type { PluginContext } from '../../../core';

/** A visitor is live when a pageview of theirs was seen or updated within this many seconds. */
export const LIVE_WINDOW = 300;
/** Hits older than the session window cannot still be updating. */
const LOOKBACK = 1800;

/** The condition on hits (alias `s`) of the site's live visitors at `now`: seen or updated within the live window, 404 hits left out. */
export function liveHits(siteId: number, now: number): { where: string; params: number[] } {
  return { where: "s.site_id = ? AND s.time >= ? AND s.time + s.time_on_page >= ? AND s.page_type <> '404'", params: [siteId, now - LOOKBACK, now - LIVE_WINDOW] };
}

export async function liveVisitors(ctx: PluginContext, siteId: number, now = ctx.clock.unix()): Promise<number> {
  const live = liveHits(siteId, now);
  const [row] = await ctx.db.select<{ n: number }>(`SELECT COUNT(DISTINCT s.uid) AS n FROM ${ctx.db.quote(ctx.db.table('statistics'))} s WHERE ${live.where}`, live.params);
  return Number(row?.n ?? 0);
}
