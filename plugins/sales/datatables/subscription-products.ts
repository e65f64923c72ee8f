import type { DataRequest } from '../../../core/statistics/request';
import type { TimeRange } from '../../../core/statistics/types';
import { moneyObject, percent } from '../data/money';
import type { SubscriptionQueries } from '../data/subscription-queries';

export const SUBSCRIPTION_PRODUCTS_METRICS = [
  'plan',
  'active_subscribers',
  'canceled_subscribers',
  'trialling_subscribers',
  'monthly_recurring_revenue',
  'product_churn_value',
] as const;

/**
 * §2.9 `subscription_products`: one row per product and currency the
 * product's subscriptions were sold in. States at the window's last second,
 * cancellations and churn over the window. `product_id`, `plan` and
 * `currency` are always present.
 */
export async function subscriptionProducts(q: SubscriptionQueries, request: DataRequest, range: TimeRange): Promise<Array<Record<string, unknown>>> {
  const key = (r: { product_id: number; currency: string }) => `${r.product_id}:${r.currency}`;
  const states = new Map((await q.productStates(range.end - 1)).map((r) => [key(r), r]));
  const churn = new Map((await q.productChurn(range)).map((r) => [key(r), r]));
  const canceled = new Map((await q.productCancellations(range)).map((r) => [key(r), r.canceled]));
  const rows = (await q.productCurrencies()).map((p) => {
    const s = states.get(key(p));
    const c = churn.get(key(p));
    return {
      product_id: p.product_id,
      plan: p.name,
      currency: p.currency,
      metrics: {
        plan: p.name,
        active_subscribers: s?.active ?? 0,
        canceled_subscribers: canceled.get(key(p)) ?? 0,
        trialling_subscribers: s?.trialling ?? 0,
        monthly_recurring_revenue: moneyObject(s?.mrr ?? 0, p.currency),
        product_churn_value: percent(c?.lostMrr ?? 0, c?.startMrr ?? 0),
      } as Record<string, unknown>,
    };
  });
  rows.sort((a, b) => (b.metrics.active_subscribers as number) - (a.metrics.active_subscribers as number) || a.product_id - b.product_id || a.currency.localeCompare(b.currency));
  return rows.slice(0, request.limit).map((r) => {
    const row: Record<string, unknown> = { product_id: r.product_id, plan: r.plan, currency: r.currency };
    for (const metric of request.metrics) row[metric] = r.metrics[metric];
    return row;
  });
}
