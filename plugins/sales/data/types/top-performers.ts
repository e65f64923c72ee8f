import { percentChange } from '../../../../core';
import { roundMoney } from '../money';
import type { RevenueDimension, ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

export const TOP_FIELDS = ['top-product', 'top-campaign', 'top-country', 'top-device'] as const;

const RANKED: Record<Exclude<(typeof TOP_FIELDS)[number], 'top-product'>, { dim: RevenueDimension; label: string; shape(key: string, id: number): Record<string, unknown> }> = {
  'top-campaign': { dim: 'campaign', label: 'Top campaign', shape: (key, id) => ({ campaign_id: id, campaign_name: key }) },
  'top-country': { dim: 'country', label: 'Top country', shape: (key) => ({ country_code: key }) },
  'top-device': { dim: 'device', label: 'Top device', shape: (key) => ({ device_name: key }) },
};

async function topProduct(q: ShopQueries, w: SalesWindow) {
  const c = w.currency;
  const [top] = (await q.products(w.scope, c, 1)).filter((p) => p.revenue > 0);
  const [before] = top ? await q.products(w.previous, c, 1, top.product_id) : [];
  const shape = (p: typeof top) => ({
    product_name: top?.product_name ?? '',
    product_id: top?.product_id ?? 0,
    total_quantity_sold: p?.quantity ?? 0,
    total_revenue: roundMoney(p?.revenue ?? 0, c),
    currency: c,
  });
  const current = shape(top);
  const previous = shape(before);
  return { label: 'Top product', current, previous, revenue_change: percentChange(current.total_revenue, previous.total_revenue) };
}

async function topBy(q: ShopQueries, w: SalesWindow, def: (typeof RANKED)[keyof typeof RANKED]) {
  const c = w.currency;
  const [top] = (await q.revenueBy(def.dim, w.scope, c, 1)).filter((r) => r.revenue > 0);
  const [before] = top ? await q.revenueBy(def.dim, w.previous, c, 1, top.key) : [];
  const current = roundMoney(top?.revenue ?? 0, c);
  const previous = roundMoney(before?.revenue ?? 0, c);
  const key = def.shape(top?.key ?? '', top?.id ?? 0);
  return {
    label: def.label,
    current: { ...key, total_revenue: current, currency: c },
    previous: { ...key, total_revenue: previous, currency: c },
    revenue_change: percentChange(current, previous),
  };
}

/**
 * §2.2: the product, campaign, country and device with the most revenue in
 * the window, net of the refunds made in it (none when nothing earned more
 * than it gave back). `previous` holds the same product (campaign, ...) in
 * the previous period, so `revenue_change` compares like with like.
 */
export async function topPerformers(q: ShopQueries, w: SalesWindow, fields: readonly string[]): Promise<Record<string, unknown>> {
  const wanted = TOP_FIELDS.filter((f) => fields.includes(f));
  const values = await Promise.all(wanted.map((f) => (f === 'top-product' ? topProduct(q, w) : topBy(q, w, RANKED[f]))));
  return Object.fromEntries(wanted.map((f, i) => [f, values[i]]));
}
