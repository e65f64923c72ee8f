import type { Database, DataRequest } from '../../../core';
import { num, tbl } from '../db';
import { moneyObject } from '../data/money';
import { ITEM_ROWS, MONEY_KINDS } from '../data/money-rows';
import { type Scope, filterDims, scopeWhere, visitorJoins } from '../data/scope';

export const SALES_PRODUCTS_METRICS = ['product', 'adds_to_cart', 'sales', 'revenue'] as const;

/** What a `sales_products` row may be grouped by: the product, the buyer's first-touch traffic source, or both. */
export const SALES_PRODUCTS_GROUPS = ['product', 'source'] as const;

interface Line {
  product_id: number;
  source: string;
  currency: string;
  name: string;
  adds: number;
  units: number;
  revenue: number;
}

/** Lines per product, traffic source and currency: units and revenue sold less those refunded in the window, add-to-cart events. */
async function lines(db: Database, scope: Scope): Promise<Line[]> {
  const byKey = new Map<string, Line>();
  const line = (r: Record<string, unknown>) => {
    const l: Line = { product_id: num(r.product_id), source: String(r.source ?? ''), currency: String(r.currency), name: String(r.name), adds: 0, units: 0, revenue: 0 };
    const key = `${l.product_id}\n${l.source}\n${l.currency}`;
    const known = byKey.get(key);
    if (known) return known;
    byKey.set(key, l);
    return l;
  };
  const inWindow = scopeWhere('i.time', scope);
  for (const kind of MONEY_KINDS) {
    const rows = ITEM_ROWS[kind];
    for (const r of await db.select<Record<string, unknown>>(
      `SELECT i.product_id, o.traffic_source AS source, i.currency, MAX(i.product_name) AS name, SUM(${rows.quantity}) AS units, SUM(${rows.value}) AS revenue
         FROM ${tbl(db, rows.table)} i JOIN ${tbl(db, 'ecommerce_orders')} o ON o.ID = i.order_ref ${visitorJoins(db, 'o', filterDims(scope))}
        WHERE ${inWindow.sql} GROUP BY i.product_id, o.traffic_source, i.currency`,
      inWindow.params,
    )) {
      const l = line(r);
      l.units += num(r.units);
      l.revenue += num(r.revenue);
    }
  }
  const added = scopeWhere('e.time', scope);
  for (const r of await db.select<Record<string, unknown>>(
    `SELECT e.product_id, e.traffic_source AS source, e.currency, MAX(e.product_name) AS name, COUNT(*) AS adds
       FROM ${tbl(db, 'ecommerce_events')} e ${visitorJoins(db, 'e', filterDims(scope))}
      WHERE e.type = 'add_to_cart' AND ${added.sql} GROUP BY e.product_id, e.traffic_source, e.currency`,
    added.params,
  )) {
    line(r).adds = num(r.adds);
  }
  return [...byKey.values()];
}

/** The lines summed per requested grouping (and currency). */
function grouped(all: readonly Line[], groupBy: readonly string[]): Line[] {
  const byProduct = groupBy.includes('product');
  const bySource = groupBy.includes('source');
  const groups = new Map<string, Line>();
  for (const l of all) {
    const key = `${byProduct ? l.product_id : ''}\n${bySource ? l.source : ''}\n${l.currency}`;
    const g = groups.get(key);
    if (!g) groups.set(key, { ...l, product_id: byProduct ? l.product_id : 0, source: bySource ? l.source : '' });
    else {
      g.adds += l.adds;
      g.units += l.units;
      g.revenue += l.revenue;
    }
  }
  return [...groups.values()].sort(
    (a, b) => b.revenue - a.revenue || b.units - a.units || b.adds - a.adds || a.product_id - b.product_id || a.source.localeCompare(b.source) || a.currency.localeCompare(b.currency),
  );
}

/**
 * §2.9 `sales_products`: one row per product and currency (revenue is never
 * summed across currencies), most revenue first; with `group_by` `source`
 * per traffic source and currency, or per product, source and currency.
 * `currency` and the grouping identifiers (`product_id`, `source`: the
 * buyer's first-touch source, '' without a tracked visit) are always present;
 * the other columns are the requested metrics (the product name only when
 * rows are products).
 */
export async function salesProducts(db: Database, request: DataRequest, scope: Scope): Promise<Array<Record<string, unknown>>> {
  const byProduct = request.groupBy.includes('product');
  const bySource = request.groupBy.includes('source');
  return grouped(await lines(db, scope), request.groupBy).slice(0, request.limit).map((l) => {
    const row: Record<string, unknown> = {};
    if (byProduct) row.product_id = l.product_id;
    if (bySource) row.source = l.source;
    row.currency = l.currency;
    for (const metric of request.metrics) {
      if (metric === 'product' && byProduct) row.product = l.name;
      else if (metric === 'adds_to_cart') row.adds_to_cart = l.adds;
      else if (metric === 'sales') row.sales = l.units;
      else if (metric === 'revenue') row.revenue = moneyObject(l.revenue, l.currency);
    }
    return row;
  });
}
