import {
  autoBucket,
  badRequest,
  type DataRequest,
  type DataRunContext,
  isoDay,
  type MetricName,
  percentChange,
  type PluginContext,
  type StatsQuery,
  type TimeBucket,
  type TimeRange,
  yearEarlier,
} from '../../../core';
import { allowList } from './allow';
import { liveVisitors } from './live';
import { realtime } from './realtime';

/**
 * How a goal counts by its `conversion_metric`: which figure of the rows
 * grouped by goal (the goal's completions joined) it takes, and which total
 * of the period it is a share of.
 */
const GOAL_COUNTS: Readonly<Record<string, { completed: MetricName; of: MetricName }>> = {
  visitors: { completed: 'visitors', of: 'visitors' },
  sessions: { completed: 'sessions', of: 'sessions' },
  pageviews: { completed: 'conversions', of: 'pageviews' },
};

const COMPARE_METRICS: MetricName[] = ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'avg_time_on_page', 'avg_session_duration', 'first_time_visitors', 'conversions'];

/** The engine query of a request, for one id. */
export function queryOf(req: DataRequest, context: Pick<DataRunContext, 'queryId' | 'siteId'>, extra: Partial<StatsQuery> = {}): StatsQuery {
  return { id: context.queryId, siteId: context.siteId, timezone: req.timezone, range: req.range, metrics: req.metrics as MetricName[], groupBy: req.groupBy, filters: req.filters, status: req.status, ...extra };
}

/** The period `compare` names (`previous`, `year`), or null when it is absent. */
function comparisonRange(compare: unknown, req: DataRequest, tz: string): TimeRange | null {
  if (compare === undefined || compare === '') return null;
  if (compare === 'previous') return req.previous;
  if (compare === 'year') return yearEarlier(req.range, tz);
  throw badRequest('compare must be previous or year.', 'svc_invalid_param', { field: 'compare' });
}

/** The free data types of the statistics tab (today, insights, compare, devices, live-visitors, realtime, goals). */
export function registerDataTypes(ctx: PluginContext): void {
  const stats = ctx.statistics;

  stats.dataType({
    id: 'today',
    tab: 'statistics',
    allow: allowList(stats, { defaultMetrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'avg_time_on_page', 'conversions'], groupBy: [], defaultGroupBy: [] }),
    async run(req, context) {
      const today = isoDay(ctx.clock.unix(), req.timezone);
      const day = stats.parseRequest({ date_start: today, date_end: today }, allowList(stats, { defaultMetrics: ['pageviews'], groupBy: [], defaultGroupBy: [] }), req.timezone);
      const base = { ...req, range: day.range };
      const [[totals], [topPage], [topReferrer], live] = await Promise.all([
        stats.query(queryOf(base, context)),
        stats.query(queryOf(base, context, { metrics: ['pageviews'], groupBy: ['page_url'], limit: 1 })),
        stats.query(queryOf(base, context, { metrics: ['sessions'], groupBy: ['referrer'], limit: 1 })),
        liveVisitors(ctx, context.siteId),
      ]);
      return { date: today, live, metrics: totals ?? {}, top_page: topPage ?? null, top_referrer: topReferrer ?? null };
    },
  });

  stats.dataType({
    id: 'live-visitors',
    tab: 'statistics',
    allow: allowList(stats, { defaultMetrics: ['visitors'], groupBy: [], defaultGroupBy: [] }),
    run: async (_req, { siteId }) => ({ count: await liveVisitors(ctx, siteId) }),
  });

  stats.dataType({
    id: 'realtime',
    tab: 'statistics',
    allow: allowList(stats, { defaultMetrics: ['visitors'], groupBy: [], defaultGroupBy: [] }),
    run: (_req, { siteId }) => realtime(ctx, siteId),
  });

  stats.dataType({
    id: 'insights',
    tab: 'statistics',
    allow: allowList(stats, { defaultMetrics: ['visitors', 'pageviews'], groupBy: ['hour', 'day', 'week', 'month'], defaultGroupBy: [] }),
    /** With `compare` (`previous` or `year`), also the series of the previous period or of the same days a year earlier. */
    async run(req, context) {
      const interval: TimeBucket = (req.groupBy[0] as TimeBucket | undefined) ?? autoBucket(req.range);
      const against = comparisonRange(context.rest?.query.compare, req, req.timezone);
      const series = async (range: TimeRange) => {
        const rows = await stats.query(queryOf(req, context, { range, groupBy: [interval] }));
        return {
          labels: rows.map((r) => r[interval]),
          timestamps: rows.map((r) => r.start),
          datasets: Object.fromEntries(req.metrics.map((m) => [m, rows.map((r) => r[m])])),
        };
      };
      const [current, comparison] = await Promise.all([series(req.range), against && series(against)]);
      if (!against || !comparison) return { interval, ...current };
      const period = { date_start: isoDay(against.start, req.timezone), date_end: isoDay(against.end - 1, req.timezone) };
      return { interval, ...current, comparison: { ...period, ...comparison } };
    },
  });

  stats.dataType({
    id: 'compare',
    tab: 'statistics',
    allow: allowList(stats, { defaultMetrics: COMPARE_METRICS, groupBy: [], defaultGroupBy: [] }),
    async run(req, context) {
      const [[current], [previous]] = await Promise.all([stats.query(queryOf(req, context)), stats.query(queryOf(req, context, { range: req.previous }))]);
      const change = Object.fromEntries(req.metrics.map((m) => [m, percentChange(Number(current?.[m] ?? 0), Number(previous?.[m] ?? 0))]));
      return {
        current: current ?? {},
        previous: previous ?? {},
        change,
        periods: {
          current: { date_start: req.dateStart, date_end: req.dateEnd },
          previous: { date_start: isoDay(req.previous.start, req.timezone), date_end: isoDay(req.previous.end - 1, req.timezone) },
        },
      };
    },
  });

  stats.dataType({
    id: 'devices',
    tab: 'statistics',
    csvFiles: [{ name: 'devices' }, { name: 'browsers', query: { group_by: 'browser' } }, { name: 'platforms', query: { group_by: 'platform' } }],
    allow: allowList(stats, { defaultMetrics: ['sessions', 'pageviews'], groupBy: ['device', 'browser', 'platform'], defaultGroupBy: ['device'], defaultLimit: 20 }),
    async run(req, context) {
      const [rows, [total]] = await Promise.all([
        stats.query(queryOf(req, context, { limit: req.limit })),
        stats.query(queryOf(req, context, { groupBy: [], metrics: [req.metrics[0] as MetricName] })),
      ]);
      const all = Number(total?.[req.metrics[0]!] ?? 0);
      return rows.map((r) => ({ ...r, share: all > 0 ? Math.round((Number(r[req.metrics[0]!]) / all) * 10000) / 100 : 0 }));
    },
  });

  stats.dataType({
    id: 'goals',
    tab: 'statistics',
    csvFiles: [{ name: 'goals' }],
    allow: allowList(stats, { metrics: ['conversions', 'conversion_rate'], defaultMetrics: ['conversions', 'conversion_rate'], groupBy: [], defaultGroupBy: [] }),
    /**
     * Each goal counted by its own `conversion_metric`: the visitors, the
     * sessions or the page views that completed it, and that share of all
     * visitors, sessions or page views of the period (never above 100 %).
     */
    async run(req, context) {
      const goals = await ctx.db.select<{ ID: number; title: string; type: string; status: string; conversion_metric: string }>(
        `SELECT ID, title, type, status, conversion_metric FROM ${ctx.db.quote(ctx.db.table('goals'))} WHERE site_id = ? ORDER BY ID`,
        [context.siteId],
      );
      const [rows, [total]] = await Promise.all([
        stats.query(queryOf(req, context, { metrics: ['visitors', 'sessions', 'conversions'], groupBy: ['goal'] })),
        stats.query(queryOf(req, context, { metrics: ['visitors', 'sessions', 'pageviews'], groupBy: [] })),
      ]);
      const byGoal = new Map(rows.map((r) => [String(r.goal), r]));
      return goals.map((g) => {
        const metric = GOAL_COUNTS[g.conversion_metric] ?? GOAL_COUNTS.visitors!;
        const conversions = Number(byGoal.get(String(g.ID))?.[metric.completed] ?? 0);
        const of = Number(total?.[metric.of] ?? 0);
        return {
          goal_id: Number(g.ID),
          title: g.title,
          type: g.type,
          status: g.status,
          conversion_metric: g.conversion_metric,
          conversions,
          conversion_rate: of > 0 ? Math.min(100, Math.round((conversions / of) * 10000) / 100) : 0,
        };
      });
    },
  });
}
