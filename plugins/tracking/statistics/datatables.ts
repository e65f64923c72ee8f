import type { DataRequest, MetricName, PluginContext, StatusFilter } from '../../../core';
import { allowList } from './allow';

interface TableSpec {
  id: string;
  dimension: string;
  defaultMetrics: MetricName[];
  status?: StatusFilter;
}

/** The free datatables of the statistics tab: one dimension, rows sorted by the first metric. */
const TABLES: readonly TableSpec[] = [
  { id: 'pages', dimension: 'page_url', defaultMetrics: ['pageviews', 'sessions', 'bounce_rate', 'avg_time_on_page'] },
  { id: 'entry-pages', dimension: 'entry_page', defaultMetrics: ['sessions', 'pageviews', 'bounce_rate'] },
  { id: 'exit-pages', dimension: 'exit_page', defaultMetrics: ['sessions', 'pageviews'] },
  { id: 'referring-domains', dimension: 'referrer_domain', defaultMetrics: ['sessions', 'pageviews', 'bounce_rate'] },
  { id: 'referrers', dimension: 'referrer', defaultMetrics: ['sessions', 'pageviews', 'bounce_rate'] },
  { id: 'operating-systems', dimension: 'platform', defaultMetrics: ['sessions', 'pageviews'] },
  { id: 'os-versions', dimension: 'os_version', defaultMetrics: ['sessions', 'pageviews'] },
  { id: 'browser-versions', dimension: 'browser_version', defaultMetrics: ['sessions', 'pageviews'] },
  { id: 'screen-sizes', dimension: 'screen', defaultMetrics: ['sessions', 'pageviews'] },
  { id: 'countries', dimension: 'country', defaultMetrics: ['sessions', 'pageviews'] },
  { id: 'not-found-pages', dimension: 'page_url', defaultMetrics: ['pageviews'], status: '404' },
];

export function registerDatatables(ctx: PluginContext): void {
  for (const spec of TABLES) {
    ctx.statistics.datatable({
      id: spec.id,
      tab: 'statistics',
      allow: allowList(ctx.statistics, { defaultMetrics: spec.defaultMetrics, groupBy: [spec.dimension], defaultGroupBy: [spec.dimension] }),
      forced: spec.status ? { status: spec.status } : undefined,
      run: (req: DataRequest, { queryId, siteId }) =>
        ctx.statistics.query({
          id: queryId,
          siteId,
          range: req.range,
          metrics: req.metrics as MetricName[],
          groupBy: req.groupBy,
          filters: req.filters,
          status: req.status,
          limit: req.limit,
        }),
    });
  }
}
