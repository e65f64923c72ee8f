import { type AllowList, badRequest, type DataRequest, type DataRunContext, dayStart, forbidden, SvcError } from '../../../core';
import type { SalesApp } from '../app';
import { SALES_PRODUCTS_GROUPS, SALES_PRODUCTS_METRICS, salesProducts } from '../datatables/sales-products';
import { SUBSCRIPTION_PRODUCTS_GROUPS, SUBSCRIPTION_PRODUCTS_METRICS, subscriptionProducts } from '../datatables/subscription-products';
import type { Currencies } from './currency';
import { SUBSCRIPTION_FILTERS, VISITOR_FILTERS } from './scope';
import { ShopQueries } from './shop-queries';
import { SubscriptionQueries } from './subscription-queries';
import { distribution, distributionView } from './types/distribution';
import { salesFunnel, selectedPages } from './types/funnel';
import { quickWins } from './types/quick-wins';
import { productParam, retention } from './types/retention';
import { CHART_GROUPS, chartMode, revenueChart } from './types/revenue-chart';
import { SALES_FIELDS, salesData } from './types/sales';
import { SUBSCRIPTION_FIELDS, subscriptionsData } from './types/subscriptions';
import { TOP_FIELDS, topPerformers } from './types/top-performers';
import { type SalesWindow, clampedWindow } from './window';

export const BASE = '/data/ecommerce';
const TAB = 'sales';
const CAPABILITY = 'view_sales_svc_statistics' as const;

const allow = (metrics: readonly string[], filters: readonly string[], groupBy: readonly string[] = [], defaultGroupBy: readonly string[] = []): AllowList => ({
  metrics,
  defaultMetrics: metrics,
  groupBy,
  defaultGroupBy,
  filters,
});

/** The datatables' metric allow-lists (§2.9). */
export const DATATABLE_METRICS: Readonly<Record<string, readonly string[]>> = {
  sales_products: SALES_PRODUCTS_METRICS,
  subscription_products: SUBSCRIPTION_PRODUCTS_METRICS,
};

/** A type-specific argument of a REST request (selected_pages, chart_mode, ...); absent for other callers. */
const param = (context: DataRunContext, name: string): unknown => context.rest?.query[name];

/**
 * Registers the ecommerce data types and datatables with the statistics
 * registry (`GET {api_base}/data/ecommerce/{type}` and `.../datatable/{id}`,
 * meta `{ tab: 'sales' }`), then the routes answering unknown ids.
 */
export function registerSalesData(app: SalesApp, currencies: Currencies): void {
  const { ctx } = app;
  /** The zone of the request's days: its site's. */
  const zoneOf = async (context: DataRunContext) => context.timezone ?? (await app.zoneOf(context.siteId));
  const shop = new ShopQueries(ctx.db, app.folds, ctx.clock);
  /** The subscription queries of the request's site that its `country` filter narrows (the subscription's own country). */
  const subsOf = async (request: DataRequest, context: DataRunContext) =>
    new SubscriptionQueries(ctx.db, context.siteId, await zoneOf(context), request.filters.find((f) => f.dimension === 'country')?.value ?? null);

  const shopWindow = async (request: DataRequest, context: DataRunContext): Promise<SalesWindow> =>
    clampedWindow(context.siteId, request, await app.activation.day(), await currencies.pick(param(context, 'currency'), 'shop'), await zoneOf(context));

  /** Null (an empty payload) without an active subscription integration or without subscription data. */
  const subscriptionWindow = async (request: DataRequest, context: DataRunContext): Promise<{ window: SalesWindow; hasPrevious: boolean } | null> => {
    await app.checkIntegrations();
    if ((await app.integrations.active()).length === 0 || !(await new SubscriptionQueries(ctx.db, context.siteId, await zoneOf(context)).any())) return null;
    const earliest = await app.integrations.earliest();
    const timezone = await zoneOf(context);
    const floor = earliest === null ? null : dayStart(earliest, timezone);
    const window = clampedWindow(context.siteId, request, floor, await currencies.pick(param(context, 'currency'), 'subscriptions'), timezone);
    return { window, hasPrevious: floor === null || window.previous.range.end > floor };
  };

  const type = (id: string, allowList: AllowList, run: (request: DataRequest, context: DataRunContext) => Promise<unknown>) =>
    ctx.statistics.dataType({ id, tab: TAB, capability: CAPABILITY, base: BASE, allow: allowList, run });

  type('sales', allow(SALES_FIELDS, VISITOR_FILTERS), async (r, c) => salesData(shop, await shopWindow(r, c), r.metrics));
  type('top-performers', allow(TOP_FIELDS, VISITOR_FILTERS), async (r, c) => topPerformers(shop, await shopWindow(r, c), r.metrics));
  type('quick-wins', allow([], VISITOR_FILTERS), async (r, c) => quickWins(shop, await shopWindow(r, c), ctx.clock.unix(), ctx.config.baseUrl));
  type('sales-funnel', allow([], VISITOR_FILTERS), async (r, c) => salesFunnel(shop, await shopWindow(r, c), selectedPages(param(c, 'selected_pages'))));
  type('subscriptions', allow(SUBSCRIPTION_FIELDS, SUBSCRIPTION_FILTERS), async (r, c) => {
    const w = await subscriptionWindow(r, c);
    return w ? subscriptionsData(await subsOf(r, c), w.window, r.metrics, w.hasPrevious) : [];
  });
  type('subscriptions-revenue-chart', allow([], SUBSCRIPTION_FILTERS, CHART_GROUPS, ['auto']), async (r, c) => {
    if (r.groupBy.length > 1) throw badRequest('group_by takes one of auto, day, week, month.', 'svc_invalid_group_by', { field: 'group_by' });
    const mode = chartMode(param(c, 'chart_mode'));
    const w = await subscriptionWindow(r, c);
    return w ? revenueChart(await subsOf(r, c), w.window, r.groupBy[0] ?? 'auto', mode, await zoneOf(c)) : [];
  });
  type('subscriptions-distribution', allow([], SUBSCRIPTION_FILTERS), async (r, c) => {
    const view = distributionView(param(c, 'distribution_view'));
    const w = await subscriptionWindow(r, c);
    return w ? distribution(await subsOf(r, c), w.window, view) : [];
  });
  type('subscriptions-retention', allow([], SUBSCRIPTION_FILTERS), async (r, c) => {
    const productId = productParam(param(c, 'product_id'));
    const w = await subscriptionWindow(r, c);
    return w ? retention(await subsOf(r, c), w.window, productId, await zoneOf(c)) : [];
  });

  ctx.statistics.datatable({
    id: 'sales_products',
    tab: TAB,
    capability: CAPABILITY,
    base: BASE,
    allow: { ...allow(SALES_PRODUCTS_METRICS, VISITOR_FILTERS, SALES_PRODUCTS_GROUPS, ['product']), defaultLimit: 100 },
    run: async (r, c) => salesProducts(shop, r, (await shopWindow(r, c)).scope),
  });
  ctx.statistics.datatable({
    id: 'subscription_products',
    tab: TAB,
    capability: CAPABILITY,
    base: BASE,
    allow: { ...allow(SUBSCRIPTION_PRODUCTS_METRICS, SUBSCRIPTION_FILTERS, SUBSCRIPTION_PRODUCTS_GROUPS, ['plan']), defaultLimit: 100 },
    run: async (r, c) => {
      const w = await subscriptionWindow(r, c);
      return w ? subscriptionProducts(await subsOf(r, c), r, w.window.scope.range) : [];
    },
  });

  const fallback = (path: string, fail: () => SvcError) =>
    ctx.rest.route({ method: 'GET', path, capability: CAPABILITY, meta: { tab: TAB }, handler: () => Promise.reject(fail()) });
  fallback(`${BASE}/datatable`, () => forbidden('Name a datatable: /data/ecommerce/datatable/{id}.', 'svc_forbidden'));
  fallback(`${BASE}/datatable/:id`, () => new SvcError('svc_abilities_unknown_datatable', 'Unknown datatable endpoint.', 404));
  fallback(`${BASE}/:type`, () => new SvcError('svc_unknown_data_type', 'Unknown ecommerce data type.', 404));
}
