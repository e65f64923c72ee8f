import type { DataRequest, TimeRange } from '../../../core';
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

/** What a `subscription_products` row may be grouped by: the plan, the subscriber's first-touch traffic source, or both. */
export const SUBSCRIPTION_PRODUCTS_GROUPS = ['plan', 'source'] as const;

interface Group {
  product_id: number;
  source: string;
  currency: string;
  name: string;
  active: number;
  trialling: number;
  canceled: number;
  mrr: number;
  startMrr: number;
  lostMrr: number;
}

/**
 * §2.9 `subscription_products`: one row per product and currency the
 * product's subscriptions were sold in; with `group_by` `source` per traffic
 * source and currency, or per product, source and currency. States at the
 * window's last second, cancellations and churn over the window.
 * `currency` and the grouping identifiers (`product_id` and `plan`,
 * `source`: the subscriber's first-touch source, '' unknown) are always
 * present; the other columns are the requested metrics.
 */
export async function subscriptionProducts(q: SubscriptionQueries, request: DataRequest, range: TimeRange): Promise<Array<Record<string, unknown>>> {
  const byPlan = request.groupBy.includes('plan');
  const bySource = request.groupBy.includes('source');
  const groups = new Map<string, Group>();
  const group = (r: { product_id: number; source: string; currency: string }, name = '') => {
    const key = `${byPlan ? r.product_id : ''}\n${bySource ? r.source : ''}\n${r.currency}`;
    let g = groups.get(key);
    if (!g) {
      g = { product_id: byPlan ? r.product_id : 0, source: bySource ? r.source : '', currency: r.currency, name, active: 0, trialling: 0, canceled: 0, mrr: 0, startMrr: 0, lostMrr: 0 };
      groups.set(key, g);
    }
    return g;
  };
  for (const p of await q.productCurrencies()) group(p, p.name);
  for (const s of await q.productStates(range.end - 1)) {
    const g = group(s);
    g.active += s.active;
    g.trialling += s.trialling;
    g.mrr += s.mrr;
  }
  for (const c of await q.productChurn(range)) {
    const g = group(c);
    g.startMrr += c.startMrr;
    g.lostMrr += c.lostMrr;
  }
  for (const c of await q.productCancellations(range)) group(c).canceled += c.canceled;
  const rows = [...groups.values()].sort(
    (a, b) => b.active - a.active || a.product_id - b.product_id || a.source.localeCompare(b.source) || a.currency.localeCompare(b.currency),
  );
  return rows.slice(0, request.limit).map((g) => {
    const row: Record<string, unknown> = {};
    if (byPlan) Object.assign(row, { product_id: g.product_id, plan: g.name });
    if (bySource) row.source = g.source;
    row.currency = g.currency;
    const metrics: Record<string, unknown> = {
      active_subscribers: g.active,
      canceled_subscribers: g.canceled,
      trialling_subscribers: g.trialling,
      monthly_recurring_revenue: moneyObject(g.mrr, g.currency),
      product_churn_value: percent(g.lostMrr, g.startMrr),
    };
    for (const metric of request.metrics) {
      if (metric === 'plan') {
        if (byPlan) row.plan = g.name;
      } else row[metric] = metrics[metric];
    }
    return row;
  });
}
