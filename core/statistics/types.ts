/** The virtual `status` filter of tracking.md §4 rule 7. */
export type StatusFilter = '404' | '200' | 'all';

/** Calendar units the chart can group by, in the site timezone. */
export type TimeBucket = 'hour' | 'day' | 'week' | 'month';
export const TIME_BUCKETS: readonly TimeBucket[] = ['hour', 'day', 'week', 'month'];

export const METRICS = [
  'pageviews',
  'visitors',
  'sessions',
  'bounces',
  'bounce_rate',
  'avg_time_on_page',
  'avg_session_duration',
  'first_time_visitors',
  'conversions',
  'conversion_rate',
] as const;
export type MetricName = (typeof METRICS)[number];

/** How a filter compares a dimension with its values (`is` unless a request names another). */
export const FILTER_OPERATORS = ['is', 'is_not', 'contains', 'not_contains'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * One condition on a dimension: `is` one value unless `operator` and `values`
 * say otherwise. Several values match when any of them does (`is_not` and
 * `not_contains`: when none does). `value` is always the first value, so
 * readers of plain `is` filters keep reading it.
 */
export interface StatsFilter {
  dimension: string;
  value: string;
  /** Default `is`. */
  operator?: FilterOperator;
  /** Every value, when there are several. */
  values?: readonly string[];
}

/** The values a filter matches. */
export const filterValues = (filter: StatsFilter): readonly string[] => (filter.values?.length ? filter.values : [filter.value]);

/** True for a filter of one value compared with `is`: the form the daily summaries can answer. */
export const isPlainFilter = (filter: StatsFilter): boolean => (filter.operator ?? 'is') === 'is' && filterValues(filter).length === 1;

/** A half-open unix interval [start, end). */
export interface TimeRange {
  start: number;
  end: number;
}

/** A validated query the engine runs; every name in it was checked against the registries. */
export interface StatsQuery {
  /** Explicit id for logs, e.g. `insights` or `report_block_pages`. */
  id: string;
  /** The site whose hits are counted; no query reads more than one. */
  siteId: number;
  /** IANA zone of the time buckets (the site's); default the install's (`SVC_TIMEZONE`), which the daily summaries are folded in. */
  timezone?: string;
  range: TimeRange;
  metrics: readonly MetricName[];
  /** Dimension names and at most one time bucket. */
  groupBy: readonly string[];
  filters: readonly StatsFilter[];
  status: StatusFilter;
  /** Sort by this metric, descending (default: the first metric). */
  orderBy?: MetricName;
  limit?: number;
  /** `raw` skips the daily summaries (used to check them). */
  mode?: 'auto' | 'raw';
}

/** One result row: dimension values (bucket starts as unix seconds) and metric values. */
export type StatsRow = Record<string, string | number>;
