import type { DataRequest } from '../../../core';
import { moneyObject } from '../data/money';
import type { Scope } from '../data/scope';
import type { ProductLine as Line, ShopQueries } from '../data/shop-queries';

export const SALES_PRODUCTS_METRICS = ['product', 'adds_to_cart', 'sales', 'revenue'] as const;

/** What a `sales_products` row may be grouped by: the product, the buyer's first-touch traffic source, or both. */
export const SALES_PRODUCTS_GROUPS = ['product', 'source'] as const;

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
export async function salesProducts(shop: ShopQueries, request: DataRequest, scope: Scope): Promise<Array<Record<string, unknown>>> {
  const byProduct = request.groupBy.includes('product');
  const bySource = request.groupBy.includes('source');
  return grouped(await shop.productLines(scope), request.groupBy).slice(0, request.limit).map((l) => {
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
