import { percentChange, type TimeRange } from '../../../../core';
import { roundMoney, percent } from '../money';
import type { SubscriptionQueries } from '../subscription-queries';
import type { SalesWindow } from '../window';

export const SUBSCRIPTION_FIELDS = [
  'monthly_recurring_revenue',
  'active_subscriptions',
  'canceled_subscriptions',
  'revenue_churn',
  'average_lifetime_value',
] as const;

async function churn(q: SubscriptionQueries, range: TimeRange, currency: string) {
  const atStart = await q.activeAt(range.start, currency);
  const lost = await q.churned(range, currency);
  return {
    churned_percentage: percent(lost.mrr, atStart.mrr),
    churned_mrr: roundMoney(lost.mrr, currency),
    count: lost.count,
    previously_active_count: atStart.count,
  };
}

/**
 * Payments up to `end` per subscription that ever paid (`value`); the
 * subscriptions active at the last second (`active_subscription_count`) and
 * those that paid at least once, canceled ones included
 * (`paying_subscription_count`, the divisor), in `currency`.
 */
async function lifetimeValue(q: SubscriptionQueries, end: number, currency: string) {
  const { revenue, paying } = await q.lifetime(end, currency);
  const active = await q.activeAt(end - 1, currency);
  return {
    value: paying > 0 ? roundMoney(revenue / paying, currency) : 0,
    active_subscription_count: active.count,
    paying_subscription_count: paying,
    total_revenue: roundMoney(revenue, currency),
  };
}

/**
 * §2.5. States are taken at the last second of each window (MRR, active
 * subscriptions), flows over the window (cancellations, churn of the
 * subscriptions active at its start). Money is in the window's currency;
 * counts of active and canceled subscriptions cover every currency.
 * `previous` counts are null when the previous period ends before the first
 * subscription (`hasPrevious` false).
 */
export async function subscriptionsData(q: SubscriptionQueries, w: SalesWindow, fields: readonly string[], hasPrevious: boolean): Promise<Record<string, unknown>> {
  const c = w.currency;
  const cur = w.scope.range;
  const prev = w.previous.range;
  const out: Record<string, unknown> = {};
  if (fields.includes('monthly_recurring_revenue')) {
    const now = await q.activeAt(cur.end - 1, c);
    const before = await q.activeAt(prev.end - 1, c);
    const current = { mrr: roundMoney(now.mrr, c), count: now.count };
    const previous = { mrr: roundMoney(before.mrr, c), count: before.count };
    out.monthly_recurring_revenue = { label: 'Monthly recurring revenue', current, previous, rate_change: percentChange(current.mrr, previous.mrr), currency: c };
  }
  if (fields.includes('active_subscriptions')) {
    const current = (await q.activeAt(cur.end - 1, null)).count;
    const previous = hasPrevious ? (await q.activeAt(prev.end - 1, null)).count : null;
    out.active_subscriptions = { label: 'Active subscriptions', current, previous, rate_change: previous === null ? null : percentChange(current, previous) };
  }
  if (fields.includes('canceled_subscriptions')) {
    const current = await q.canceled(cur);
    const previous = hasPrevious ? await q.canceled(prev) : null;
    out.canceled_subscriptions = { label: 'Canceled subscriptions', current, previous, rate_change: previous === null ? null : percentChange(current, previous) };
  }
  if (fields.includes('revenue_churn')) {
    const current = await churn(q, cur, c);
    const { previously_active_count: _omitted, ...previous } = await churn(q, prev, c);
    out.revenue_churn = { label: 'Revenue churn', current, previous, rate_change: percentChange(current.churned_percentage, previous.churned_percentage) };
  }
  if (fields.includes('average_lifetime_value')) {
    const current = await lifetimeValue(q, cur.end, c);
    const previous = await lifetimeValue(q, prev.end, c);
    out.average_lifetime_value = { label: 'Average lifetime value', current, previous, rate_change: percentChange(current.value, previous.value), currency: c };
  }
  return out;
}

