import type { SvcEmailBlockDefinition, SvcQueryRow } from '../../../hooks';
import { formatMoney } from './format';

/** Where a block's data comes from: a data type or datatable of the statistics registry. */
export interface BlockSource {
  source: 'type' | 'datatable';
  id: string;
  /** Route base of the data id (default `/data`; ecommerce types live below `/data/ecommerce`). */
  base: string;
  metrics: string[];
  group_by: string[];
  /** Row keys shown as table columns, in header order (default: group_by then metrics). */
  columns: string[];
}

/** What turns a data type's answer into table rows; datatables already answer rows. */
export type RowAdapter = (data: unknown) => SvcQueryRow[];

interface BuiltinBlock {
  definition: SvcEmailBlockDefinition;
  adapter?: RowAdapter;
}

/**
 * Data ids a report share session may call for each block id (§4.5).
 * Internal and not filterable: a block that is not listed has none.
 */
export const BLOCK_ENDPOINTS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  compare: Object.freeze(['compare', 'insights']),
  pages: Object.freeze(['pages']),
  referrers: Object.freeze(['referrers']),
  countries: Object.freeze(['countries']),
  campaigns: Object.freeze(['campaigns']),
  devices: Object.freeze(['devices']),
  goals: Object.freeze(['goals']),
  'not-found-pages': Object.freeze(['not-found-pages']),
  sales: Object.freeze(['sales']),
  'top-performers': Object.freeze(['top-performers']),
});

export const COMPARE_METRICS = ['pageviews', 'sessions', 'visitors', 'bounce_rate'] as const;

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {});
const cell = (value: unknown): string | number | null =>
  typeof value === 'number' || typeof value === 'string' ? value : value === null || value === undefined ? null : JSON.stringify(value);
const money = (value: unknown, currency: unknown): string | number | null =>
  typeof value === 'number' && typeof currency === 'string' ? formatMoney(value, currency) : cell(value);

/** `compare`: one row per metric with the current and previous period and the change. */
const compareRows: RowAdapter = (data) => {
  const d = obj(data);
  return COMPARE_METRICS.map((metric) => ({
    metric,
    current: cell(obj(d.current)[metric]) ?? 0,
    previous: cell(obj(d.previous)[metric]) ?? 0,
    change: cell(obj(d.change)[metric]),
  }));
};

/** `sales` (ecommerce.md §2.1): the headline member of each field, current against previous. */
const SALES_FIELDS: ReadonlyArray<[field: string, member: string, kind: 'percent' | 'money']> = [
  ['revenue', 'total_revenue', 'money'],
  ['average-order', 'average_order_value', 'money'],
  ['conversion-rate', 'conversion_rate', 'percent'],
  ['abandonment-rate', 'abandoned_rate', 'percent'],
];
const salesRows: RowAdapter = (data) =>
  SALES_FIELDS.filter(([field]) => field in obj(data)).map(([field, member, kind]) => {
    const entry = obj(obj(data)[field]);
    const value = (period: unknown) =>
      kind === 'money' ? money(obj(period)[member], obj(period).currency) : cell(obj(period)[member]);
    return { metric: cell(entry.label) ?? field, current: value(entry.current), previous: value(entry.previous), kind };
  });

/** `top-performers` (ecommerce.md §2.2): the best product, campaign, country and device by revenue. */
const TOP_FIELDS: ReadonlyArray<[field: string, name: string]> = [
  ['top-product', 'product_name'],
  ['top-campaign', 'campaign_name'],
  ['top-country', 'country_code'],
  ['top-device', 'device_name'],
];
const topPerformerRows: RowAdapter = (data) =>
  TOP_FIELDS.filter(([field]) => field in obj(data)).map(([field, name]) => {
    const entry = obj(obj(data)[field]);
    const current = obj(entry.current);
    return { label: cell(entry.label) ?? field, name: cell(current[name]), revenue: money(current.total_revenue, current.currency), change: cell(entry.revenue_change) };
  });

const arrayRows: RowAdapter = (data) => (Array.isArray(data) ? data.map((r) => obj(r) as SvcQueryRow) : []);

function block(
  id: string,
  title: string,
  header: string[],
  url: string,
  args: Partial<BlockSource> & Pick<BlockSource, 'source' | 'id'>,
  adapter?: RowAdapter,
): BuiltinBlock {
  return { definition: { id, title, header, url, query_args: { base: '/data', metrics: [], group_by: [], ...args } }, adapter };
}

/** The blocks reports offer; each one is available when its data id is registered. */
export const BUILTIN_BLOCKS: readonly BuiltinBlock[] = [
  block('compare', 'Summary', ['Metric', 'This period', 'Previous period', 'Change'], '/svc-admin/statistics', {
    source: 'type',
    id: 'compare',
    metrics: [...COMPARE_METRICS],
    columns: ['metric', 'current', 'previous', 'change'],
  }, compareRows),
  block('pages', 'Most visited pages', ['Page', 'Pageviews', 'Visitors'], '/svc-admin/statistics', {
    source: 'datatable',
    id: 'pages',
    metrics: ['pageviews', 'visitors'],
    group_by: ['page_url'],
  }),
  block('referrers', 'Top referrers', ['Referrer', 'Sessions', 'Pageviews'], '/svc-admin/statistics', {
    source: 'datatable',
    id: 'referrers',
    metrics: ['sessions', 'pageviews'],
    group_by: ['referrer'],
  }),
  block('countries', 'Top countries', ['Country', 'Sessions', 'Pageviews'], '/svc-admin/sources', {
    source: 'datatable',
    id: 'countries',
    metrics: ['sessions', 'pageviews'],
    group_by: ['country'],
  }),
  block('campaigns', 'Top campaigns', ['Campaign', 'Sessions', 'Pageviews'], '/svc-admin/sources', {
    source: 'datatable',
    id: 'campaigns',
    metrics: ['sessions', 'pageviews'],
    group_by: ['campaign'],
  }),
  block('devices', 'Devices', ['Device', 'Sessions', 'Share'], '/svc-admin/statistics', {
    source: 'type',
    id: 'devices',
    metrics: ['sessions'],
    group_by: ['device'],
    columns: ['device', 'sessions', 'share'],
  }, arrayRows),
  block('goals', 'Goals', ['Goal', 'Conversions', 'Conversion rate'], '/svc-admin/statistics', {
    source: 'type',
    id: 'goals',
    columns: ['title', 'conversions', 'conversion_rate'],
  }, arrayRows),
  block('not-found-pages', 'Pages not found', ['Page', 'Visits'], '/svc-admin/statistics', {
    source: 'datatable',
    id: 'not-found-pages',
    metrics: ['pageviews'],
    group_by: ['page_url'],
  }),
  block('sales', 'Sales', ['Metric', 'This period', 'Previous period'], '/svc-admin/sales', {
    source: 'type',
    id: 'sales',
    base: '/data/ecommerce',
    columns: ['metric', 'current', 'previous'],
  }, salesRows),
  block('top-performers', 'Top performers', ['', 'Best', 'Revenue', 'Change'], '/svc-admin/sales', {
    source: 'type',
    id: 'top-performers',
    base: '/data/ecommerce',
    columns: ['label', 'name', 'revenue', 'change'],
  }, topPerformerRows),
];

const ADAPTERS = new Map(BUILTIN_BLOCKS.filter((b) => b.adapter).map((b) => [b.definition.id, b.adapter!]));

/** The adapter for a block id; data types of blocks added by other plugins must answer rows. */
export const adapterFor = (blockId: string): RowAdapter => ADAPTERS.get(blockId) ?? arrayRows;

const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The source of a block definition's `query_args`, or null when they do not name one. */
export function sourceOf(definition: SvcEmailBlockDefinition): BlockSource | null {
  const args = obj(definition.query_args);
  if ((args.source !== 'type' && args.source !== 'datatable') || typeof args.id !== 'string') return null;
  const metrics = names(args.metrics);
  const groupBy = names(args.group_by);
  const columns = names(args.columns);
  return {
    source: args.source,
    id: args.id,
    base: typeof args.base === 'string' ? args.base : '/data',
    metrics,
    group_by: groupBy,
    columns: columns.length ? columns : [...groupBy, ...metrics],
  };
}
