import { percentChange } from '../../../../core/statistics/metrics';
import { roundMoney } from '../money';
import type { RevenueDimension, ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

export const TOP_FIELDS = ['top-product', 'top-campaign', 'top-country', 'top-device'] as const;

const RANKED: Record<Exclude<(typeof TOP_FIELDS)[number], 'top-product'>, { dim: RevenueDimension; label: string; shape(key: string, id: number): Record<string, unknown> }> = {
  'top-campaign': { dim: 'campaign', label: 'Top campaign', shape: (key, id) => ({ campaign_id: id, campaign_name: key }) },
  'top-country': { dim: 'country', label: 'Top country', shape: (key) => ({ country_code: key }) },
  'top-device': { dim: 'device', label: 'Top device', shape: (key) => ({ device_name: key }) },
};

/**
 * §2.2: the product, campaign, country and device with the most revenue in
 * the window. `previous` holds the same product (campaign, ...) in the
 * previous period, so `revenue_change` compares like with like.
 */
export async function topPerformers(q: ShopQueries, w: SalesWindow, fields: readonly string[]): Promise<Record<string, unknown>> {
  const c = w.currency;
  const out: Record<string, unknown> = {};
  if (fields.includes('top-product')) {
    const [top] = await q.products(w.scope, c, 1);
    const [before] = top ? await q.products(w.previous, c, 1, top.product_id) : [];
    const shape = (p: typeof top, name: string, id: number) => ({
      product_name: name,
      product_id: id,
      total_quantity_sold: p?.quantity ?? 0,
      total_revenue: roundMoney(p?.revenue ?? 0, c),
      currency: c,
    });
    out['top-product'] = {
      label: 'Top product',
      current: shape(top, top?.product_name ?? '', top?.product_id ?? 0),
      previous: shape(before, top?.product_name ?? '', top?.product_id ?? 0),
      revenue_change: percentChange(roundMoney(top?.revenue ?? 0, c), roundMoney(before?.revenue ?? 0, c)),
    };
  }
  for (const [field, def] of Object.entries(RANKED) as Array<[keyof typeof RANKED, (typeof RANKED)[keyof typeof RANKED]]>) {
    if (!fields.includes(field)) continue;
    const [top] = await q.revenueBy(def.dim, w.scope, c, 1);
    const [before] = top ? await q.revenueBy(def.dim, w.previous, c, 1, top.key) : [];
    const current = roundMoney(top?.revenue ?? 0, c);
    const previous = roundMoney(before?.revenue ?? 0, c);
    out[field] = {
      label: def.label,
      current: { ...def.shape(top?.key ?? '', top?.id ?? 0), total_revenue: current, currency: c },
      previous: { ...def.shape(top?.key ?? '', top?.id ?? 0), total_revenue: previous, currency: c },
      revenue_change: percentChange(current, previous),
    };
  }
  return out;
}
