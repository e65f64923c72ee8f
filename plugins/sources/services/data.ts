import { type AllowList, type DataRequest, type DataRunContext, type MetricName, METRICS, type PluginContext, type StatsRow } from '../../../core';
import { CHANNELS, type Channel, classify, referrerDomain } from './channels';
import { CAMPAIGN_FIELDS } from './utm';

const round2 = (n: number) => Math.round(n * 100) / 100;

interface SourceTotals {
  sessions: number;
  pageviews: number;
  bounces: number;
}

/** The data of the sources tab: channels, referrer domains, campaigns and locations. */
export function registerSourcesData(ctx: PluginContext): void {
  const stats = ctx.statistics;
  /** Filters are every dimension known when a request arrives (the campaign fields are added after this runs): a getter, never a copy. */
  const allow = (groupBy: readonly string[], defaultGroupBy: readonly string[], defaultMetrics: MetricName[], metrics: readonly string[] = METRICS, defaultLimit?: number): AllowList => ({
    metrics,
    defaultMetrics,
    groupBy,
    defaultGroupBy,
    get filters() {
      return stats.dimensions();
    },
    defaultLimit,
    operators: true,
  });
  const query = (req: DataRequest, run: DataRunContext, extra: { metrics?: MetricName[]; groupBy?: string[]; limit?: number } = {}) =>
    stats.query({ id: run.queryId, siteId: run.siteId, timezone: req.timezone, range: req.range, metrics: extra.metrics ?? (req.metrics as MetricName[]), groupBy: extra.groupBy ?? req.groupBy, filters: req.filters, status: req.status, limit: extra.limit });

  /**
   * Rows of the engine's `referrer_domain` (summarised) summed per key (domain or channel);
   * bounce rate recomputed from the sums.
   */
  const byReferrer = async (req: DataRequest, run: DataRunContext, key: (domain: string) => string) => {
    const rows = await query(req, run, { metrics: ['sessions', 'pageviews', 'bounces'], groupBy: ['referrer_domain'] });
    const sums = new Map<string, SourceTotals>();
    for (const row of rows) {
      const k = key(String(row.referrer_domain));
      const t = sums.get(k) ?? { sessions: 0, pageviews: 0, bounces: 0 };
      t.sessions += Number(row.sessions);
      t.pageviews += Number(row.pageviews);
      t.bounces += Number(row.bounces);
      sums.set(k, t);
    }
    return [...sums.entries()]
      .map(([k, t]) => ({ key: k, sessions: t.sessions, pageviews: t.pageviews, bounce_rate: t.sessions ? round2((t.bounces / t.sessions) * 100) : 0 }))
      .sort((a, b) => b.sessions - a.sessions || (a.key < b.key ? -1 : 1));
  };
  const sourceMetrics = ['sessions', 'pageviews', 'bounce_rate'];

  stats.dataType({
    id: 'channels',
    tab: 'sources',
    allow: allow([], [], ['sessions', 'pageviews', 'bounce_rate'], sourceMetrics),
    async run(req, run) {
      const rows = await byReferrer(req, run, (r) => classify(referrerDomain(r)));
      const total = rows.reduce((n, r) => n + r.sessions, 0);
      return CHANNELS.map((channel: Channel) => {
        const row = rows.find((r) => r.key === channel) ?? { sessions: 0, pageviews: 0, bounce_rate: 0 };
        return { channel, sessions: row.sessions, pageviews: row.pageviews, bounce_rate: row.bounce_rate, share: total ? round2((row.sessions / total) * 100) : 0 };
      });
    },
  });

  stats.datatable({
    id: 'referrer-domains',
    tab: 'sources',
    allow: allow(['domain'], ['domain'], ['sessions', 'pageviews', 'bounce_rate'], sourceMetrics, 100),
    async run(req, run) {
      const rows = await byReferrer(req, run, referrerDomain);
      return rows.slice(0, req.limit).map((r) => ({
        domain: r.key,
        channel: classify(r.key),
        ...Object.fromEntries(req.metrics.map((m) => [m, r[m as keyof typeof r]])),
      }));
    },
  });

  stats.datatable({
    id: 'campaigns',
    tab: 'sources',
    allow: allow(CAMPAIGN_FIELDS, ['source', 'medium', 'campaign'], ['visitors', 'sessions', 'pageviews', 'conversions']),
    async run(req, run) {
      const rows = await query(req, run);
      return rows.filter((r: StatsRow) => req.groupBy.some((g) => r[g] !== '')).slice(0, req.limit);
    },
  });

  for (const [id, groupBy, defaults] of [
    ['regions', ['country', 'region'], ['country', 'region']],
    ['cities', ['country', 'region', 'city'], ['country', 'city']],
  ] as const) {
    stats.datatable({
      id,
      tab: 'sources',
      allow: allow(groupBy, defaults, ['sessions', 'pageviews', 'visitors']),
      run: (req, run) => query(req, run, { limit: req.limit }),
    });
  }

  stats.dataType({
    id: 'world-map',
    tab: 'sources',
    allow: allow([], [], ['sessions', 'pageviews']),
    run: (req, run) => query(req, run, { groupBy: ['country'], limit: 300 }),
  });
}
