import type { PluginContext } from '../../../core';
import { liveHits, liveVisitors } from './live';

/** Minutes of the per-minute pageviews, the current one last. */
export const REALTIME_MINUTES = 30;
/** Rows of each top list. */
const TOP = 10;

export interface RealtimeView {
  visitors: number;
  pageviews_per_minute: Array<{ minute: number; pageviews: number }>;
  top_pages: Array<{ page_url: string; visitors: number }>;
  top_referrers: Array<{ referrer: string; visitors: number }>;
  top_countries: Array<{ country: string; visitors: number }>;
}

/** The pageviews (404 hits left out) of each of the last 30 minutes, oldest first, empty minutes as 0. */
async function pageviewsPerMinute(ctx: PluginContext, siteId: number, now: number): Promise<RealtimeView['pageviews_per_minute']> {
  const first = now - (now % 60) - (REALTIME_MINUTES - 1) * 60;
  const rows = await ctx.db.select<{ minute: number | string; pageviews: number | string }>(
    `SELECT s.time - s.time % 60 AS minute, COUNT(*) AS pageviews FROM ${ctx.db.quote(ctx.db.table('statistics'))} s
     WHERE s.site_id = ? AND s.time >= ? AND s.time <= ? AND s.page_type <> '404' GROUP BY s.time - s.time % 60`,
    [siteId, first, now],
  );
  const counts = new Map(rows.map((r) => [Number(r.minute), Number(r.pageviews)]));
  return Array.from({ length: REALTIME_MINUTES }, (_, i) => ({ minute: first + i * 60, pageviews: counts.get(first + i * 60) ?? 0 }));
}

/** The live visitors per value of `expr` (joins as needed), most first, then by value. */
async function topOf<K extends string>(ctx: PluginContext, siteId: number, now: number, key: K, expr: string, joins: string): Promise<Array<Record<K, string> & { visitors: number }>> {
  const live = liveHits(siteId, now);
  const rows = await ctx.db.select<Record<string, unknown>>(
    `SELECT ${expr} AS ${key}, COUNT(DISTINCT s.uid) AS visitors FROM ${ctx.db.quote(ctx.db.table('statistics'))} s ${joins}
     WHERE ${live.where} GROUP BY ${expr} ORDER BY visitors DESC, ${key} LIMIT ${TOP}`,
    live.params,
  );
  return rows.map((r) => ({ [key]: String(r[key] ?? ''), visitors: Number(r.visitors) }) as Record<K, string> & { visitors: number });
}

/** What is happening now on the site, read from raw hits at the injected clock (`GET {api_base}/data/realtime`). */
export async function realtime(ctx: PluginContext, siteId: number): Promise<RealtimeView> {
  const now = ctx.clock.unix();
  const table = (name: string) => ctx.db.quote(ctx.db.table(name));
  const session = `LEFT JOIN ${table('sessions')} ses ON ses.ID = s.session_id`;
  const [visitors, perMinute, pages, referrers, countries] = await Promise.all([
    liveVisitors(ctx, siteId, now),
    pageviewsPerMinute(ctx, siteId, now),
    topOf(ctx, siteId, now, 'page_url', 's.page_url', ''),
    topOf(ctx, siteId, now, 'referrer', "COALESCE(ses.referrer, '')", session),
    topOf(ctx, siteId, now, 'country', "COALESCE(loc.country_code, '')", `${session} LEFT JOIN ${table('locations')} loc ON loc.city_code = ses.city_code`),
  ]);
  return { visitors, pageviews_per_minute: perMinute, top_pages: pages, top_referrers: referrers, top_countries: countries };
}
