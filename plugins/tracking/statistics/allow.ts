import { type AllowList, type MetricName, METRICS, type StatisticsApi } from '../../../core';

/** An allow-list whose filters are every dimension known when the request arrives (plugins add some), with any operator. */
export function allowList(
  stats: StatisticsApi,
  spec: { metrics?: readonly MetricName[]; defaultMetrics: readonly MetricName[]; groupBy: readonly string[]; defaultGroupBy: readonly string[]; defaultLimit?: number },
): AllowList {
  return {
    metrics: spec.metrics ?? METRICS,
    defaultMetrics: spec.defaultMetrics,
    groupBy: spec.groupBy,
    defaultGroupBy: spec.defaultGroupBy,
    get filters() {
      return stats.dimensions();
    },
    defaultLimit: spec.defaultLimit,
    // Every tracking route hands its filters to the statistics engine, which compares with each operator.
    operators: true,
  };
}
