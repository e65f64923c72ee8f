import { roundMoney, percent } from '../money';
import type { Scope } from '../scope';
import type { ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

export const SALES_FIELDS = ['conversion-rate', 'abandonment-rate', 'average-order', 'revenue'] as const;

const LABELS: Record<(typeof SALES_FIELDS)[number], string> = {
  'conversion-rate': 'Conversion rate',
  'abandonment-rate': 'Cart abandonment rate',
  'average-order': 'Average order value',
  revenue: 'Revenue',
};

async function figures(q: ShopQueries, scope: Scope, currency: string) {
  const [visitors, conversions, carts, orders] = await Promise.all([q.visitors(scope), q.conversions(scope), q.carts(scope), q.orders(scope, currency)]);
  const money = {
    total_orders: orders.orders,
    total_revenue: roundMoney(orders.revenue, currency),
    average_order_value: orders.orders > 0 ? roundMoney(orders.revenue / orders.orders, currency) : 0,
    total_refunded: roundMoney(orders.refunded, currency),
    currency,
  };
  return {
    'conversion-rate': {
      visitors,
      total_converted: conversions.converted,
      conversion_rate: percent(conversions.converted, visitors),
      orders_without_visit: conversions.withoutVisit,
      total_orders_all_currencies: conversions.orders,
    },
    'abandonment-rate': {
      total_carts: carts.carts,
      total_converted: carts.converted,
      total_abandoned: carts.carts - carts.converted,
      abandoned_rate: percent(carts.carts - carts.converted, carts.carts),
    },
    'average-order': money,
    revenue: { ...money },
  };
}

/** §2.1: conversion, cart abandonment, average order and revenue for the window and the previous period. */
export async function salesData(q: ShopQueries, w: SalesWindow, fields: readonly string[]): Promise<Record<string, unknown>> {
  const [current, previous] = await Promise.all([figures(q, w.scope, w.currency), figures(q, w.previous, w.currency)]);
  const out: Record<string, unknown> = {};
  for (const field of SALES_FIELDS) {
    if (fields.includes(field)) out[field] = { label: LABELS[field], current: current[field], previous: previous[field] };
  }
  return out;
}
