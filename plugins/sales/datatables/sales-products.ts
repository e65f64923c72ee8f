import type { Database } from '../../../core/db/database';
import type { DataRequest } from '../../../core/statistics/request';
import { num, tbl } from '../db';
import { moneyObject } from '../data/money';
import { type Scope, filterDims, scopeWhere, visitorJoins } from '../data/scope';
import { ordersOf } from '../data/shop-queries';

export const SALES_PRODUCTS_METRICS = ['product', 'adds_to_cart', 'sales', 'revenue'] as const;

interface Line {
  product_id: number;
  currency: string;
  name: string;
  adds: number;
  units: number;
  revenue: number;
}

async function lines(db: Database, scope: Scope): Promise<Line[]> {
  const byKey = new Map<string, Line>();
  const line = (productId: number, currency: string, name: string) => {
    const key = `${productId}:${currency}`;
    let l = byKey.get(key);
    if (!l) byKey.set(key, (l = { product_id: productId, currency, name, adds: 0, units: 0, revenue: 0 }));
    return l;
  };
  const sold = scopeWhere('i.time', scope);
  for (const r of await db.select<Record<string, unknown>>(
    `SELECT i.product_id, i.currency, MAX(i.product_name) AS name, SUM(i.quantity) AS units, SUM(i.quantity * i.price) AS revenue
       FROM ${tbl(db, 'ecommerce_order_items')} i ${ordersOf(db, scope)}
      WHERE ${sold.sql} GROUP BY i.product_id, i.currency`,
    sold.params,
  )) {
    const l = line(num(r.product_id), String(r.currency), String(r.name));
    l.units = num(r.units);
    l.revenue = num(r.revenue);
  }
  const added = scopeWhere('e.time', scope);
  for (const r of await db.select<Record<string, unknown>>(
    `SELECT e.product_id, e.currency, MAX(e.product_name) AS name, COUNT(*) AS adds
       FROM ${tbl(db, 'ecommerce_events')} e ${visitorJoins(db, 'e', filterDims(scope))}
      WHERE e.type = 'add_to_cart' AND ${added.sql} GROUP BY e.product_id, e.currency`,
    added.params,
  )) {
    line(num(r.product_id), String(r.currency), String(r.name)).adds = num(r.adds);
  }
  return [...byKey.values()].sort((a, b) => b.revenue - a.revenue || b.units - a.units || b.adds - a.adds || a.product_id - b.product_id || a.currency.localeCompare(b.currency));
}

/**
 * §2.9 `sales_products`: one row per product and currency (revenue is never
 * summed across currencies), most revenue first. `product_id` and `currency`
 * are always present; the other columns are the requested metrics.
 */
export async function salesProducts(db: Database, request: DataRequest, scope: Scope): Promise<Array<Record<string, unknown>>> {
  return (await lines(db, scope)).slice(0, request.limit).map((l) => {
    const row: Record<string, unknown> = { product_id: l.product_id, currency: l.currency };
    for (const metric of request.metrics) {
      if (metric === 'product') row.product = l.name;
      else if (metric === 'adds_to_cart') row.adds_to_cart = l.adds;
      else if (metric === 'sales') row.sales = l.units;
      else if (metric === 'revenue') row.revenue = moneyObject(l.revenue, l.currency);
    }
    return row;
  });
}
