import type { Database } from '../../../core/db/database';
import { type Frag, frag, joinFrags } from '../../../core/statistics/sql/fragment';
import { num, tbl } from '../db';
import { DIMENSION_SQL, type Scope, type VisitorDimension, filterDims, scopeWhere, visitorJoins } from './scope';

export interface FunnelCounts {
  visits: number;
  views: number;
  carts: number;
  checkouts: number;
  orders: number;
}

export interface ProductFigures {
  product_id: number;
  product_name: string;
  quantity: number;
  revenue: number;
}

/** Revenue ranking keys: campaigns come from the order, country and device from the visitor's session. */
export type RevenueDimension = 'campaign' | VisitorDimension;

export interface RevenueRow {
  key: string;
  /** Campaign id (0 for country and device). */
  id: number;
  revenue: number;
  orders: number;
  /** Time of the latest order. */
  last: number;
}

export interface ProductEngagement {
  product_id: number;
  product_name: string;
  views: number;
  adds: number;
}

/** Order items reach the visitor through their order; without visitor filters the order is not needed. */
export function ordersOf(db: Database, scope: Scope): string {
  const dims = filterDims(scope);
  return dims.length ? `JOIN ${tbl(db, 'ecommerce_orders')} o ON o.ID = i.order_ref ${visitorJoins(db, 'o', dims)}` : '';
}

/** SQL over orders, items and visitor events, scoped to a window and visitor filters. */
export class ShopQueries {
  constructor(private readonly db: Database) {}

  private t(name: string): string {
    return tbl(this.db, name);
  }

  private async one(query: Frag): Promise<Record<string, unknown>> {
    const [row] = await this.db.select(query.sql, query.params);
    return row ?? {};
  }

  /** Distinct visitors (uids) of the sessions started in the window. */
  async visitors(scope: Scope): Promise<number> {
    const where = scopeWhere('ses.time', scope);
    const row = await this.one(frag(`SELECT COUNT(DISTINCT ses.uid) AS n FROM ${this.t('sessions')} ses ${visitorJoins(this.db, null, filterDims(scope))} WHERE ${where.sql}`, where.params));
    return num(row.n);
  }

  /** Distinct buyers: visitors with an order, plus each order no visitor is known for. */
  async buyers(scope: Scope): Promise<number> {
    const where = scopeWhere('o.time', scope);
    const row = await this.one(
      frag(
        `SELECT COUNT(DISTINCT CASE WHEN o.uid <> '' THEN o.uid END) AS known, SUM(CASE WHEN o.uid = '' THEN 1 ELSE 0 END) AS anonymous
           FROM ${this.t('ecommerce_orders')} o ${visitorJoins(this.db, 'o', filterDims(scope))} WHERE ${where.sql}`,
        where.params,
      ),
    );
    return num(row.known) + num(row.anonymous);
  }

  /**
   * Sessions with an add-to-cart in the window (a cart without a known
   * session counts once per visitor) and how many of them belong to a visitor
   * who ordered in the window.
   */
  async carts(scope: Scope): Promise<{ carts: number; converted: number }> {
    const where = scopeWhere('e.time', scope);
    const count = async (onlyBuyers: boolean) => {
      const buyers = onlyBuyers ? frag(` AND e.uid IN (SELECT o.uid FROM ${this.t('ecommerce_orders')} o WHERE o.uid <> '' AND o.time >= ? AND o.time < ?)`, [scope.range.start, scope.range.end]) : frag('');
      const row = await this.one(
        frag(
          `SELECT COUNT(DISTINCT CASE WHEN e.session_id > 0 THEN e.session_id END) AS s, COUNT(DISTINCT CASE WHEN e.session_id = 0 THEN e.uid END) AS u
             FROM ${this.t('ecommerce_events')} e ${visitorJoins(this.db, 'e', filterDims(scope))}
            WHERE e.type = 'add_to_cart' AND ${where.sql}${buyers.sql}`,
          [...where.params, ...buyers.params],
        ),
      );
      return num(row.s) + num(row.u);
    };
    return { carts: await count(false), converted: await count(true) };
  }

  /** Orders and revenue in one currency. */
  async orders(scope: Scope, currency: string): Promise<{ orders: number; revenue: number }> {
    const where = scopeWhere('o.time', scope);
    const row = await this.one(
      frag(
        `SELECT COUNT(*) AS n, COALESCE(SUM(o.total), 0) AS revenue FROM ${this.t('ecommerce_orders')} o ${visitorJoins(this.db, 'o', filterDims(scope))}
          WHERE o.currency = ? AND ${where.sql}`,
        [currency, ...where.params],
      ),
    );
    return { orders: num(row.n), revenue: num(row.revenue) };
  }

  /** The five funnel stages; product views only on `pages` when given. */
  async funnel(scope: Scope, pages: readonly string[] | null): Promise<FunnelCounts> {
    const dims = filterDims(scope);
    const sessions = scopeWhere('ses.time', scope);
    const visits = await this.one(frag(`SELECT COUNT(*) AS n FROM ${this.t('sessions')} ses ${visitorJoins(this.db, null, dims)} WHERE ${sessions.sql}`, sessions.params));
    const onPages = pages ? frag(` AND e.url IN (${pages.map(() => '?').join(', ') || "''"})`, [...pages]) : frag('');
    const events = scopeWhere('e.time', scope);
    const counts = await this.one(
      frag(
        `SELECT SUM(CASE WHEN e.type = 'product_view'${onPages.sql} THEN 1 ELSE 0 END) AS views,
                SUM(CASE WHEN e.type = 'add_to_cart' THEN 1 ELSE 0 END) AS carts,
                SUM(CASE WHEN e.type = 'checkout_visit' THEN 1 ELSE 0 END) AS checkouts
           FROM ${this.t('ecommerce_events')} e ${visitorJoins(this.db, 'e', dims)} WHERE ${events.sql}`,
        [...onPages.params, ...events.params],
      ),
    );
    const orders = scopeWhere('o.time', scope);
    const ordered = await this.one(frag(`SELECT COUNT(*) AS n FROM ${this.t('ecommerce_orders')} o ${visitorJoins(this.db, 'o', dims)} WHERE ${orders.sql}`, orders.params));
    return { visits: num(visits.n), views: num(counts.views), carts: num(counts.carts), checkouts: num(counts.checkouts), orders: num(ordered.n) };
  }

  /** Products by line revenue (quantity × price) in one currency; `productId` narrows to one. */
  async products(scope: Scope, currency: string, limit: number, productId?: number): Promise<ProductFigures[]> {
    const where = scopeWhere('i.time', scope);
    const only = productId === undefined ? frag('') : frag(' AND i.product_id = ?', [productId]);
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT i.product_id, MAX(i.product_name) AS product_name, SUM(i.quantity) AS quantity, SUM(i.quantity * i.price) AS revenue
         FROM ${this.t('ecommerce_order_items')} i ${ordersOf(this.db, scope)}
        WHERE i.currency = ? AND ${where.sql}${only.sql}
        GROUP BY i.product_id ORDER BY revenue DESC, i.product_id LIMIT ${Math.max(1, Math.floor(limit))}`,
      [currency, ...where.params, ...only.params],
    );
    return rows.map((r) => ({ product_id: num(r.product_id), product_name: String(r.product_name), quantity: num(r.quantity), revenue: num(r.revenue) }));
  }

  /** Order revenue in one currency by campaign, country or device (unknown values left out); `key` narrows to one. */
  async revenueBy(dim: RevenueDimension, scope: Scope, currency: string, limit: number, key?: string): Promise<RevenueRow[]> {
    const dims = new Set<VisitorDimension>(filterDims(scope));
    let keyExpr: string;
    let idExpr = '0';
    let join = '';
    if (dim === 'campaign') {
      join = `JOIN ${this.t('ecommerce_campaigns')} c ON c.ID = o.campaign_id`;
      keyExpr = 'c.name';
      idExpr = 'MAX(c.ID)';
    } else {
      dims.add(dim);
      keyExpr = DIMENSION_SQL[dim];
    }
    const where = scopeWhere('o.time', scope);
    const narrow = key === undefined ? frag('') : frag(` AND ${keyExpr} = ?`, [key]);
    const conditions = joinFrags([frag('o.currency = ?', [currency]), where, frag(`${keyExpr} <> ''`)], ' AND ');
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT ${keyExpr} AS k, ${idExpr} AS id, COALESCE(SUM(o.total), 0) AS revenue, COUNT(*) AS orders, MAX(o.time) AS last
         FROM ${this.t('ecommerce_orders')} o ${join} ${visitorJoins(this.db, 'o', dims)}
        WHERE ${conditions.sql}${narrow.sql}
        GROUP BY ${keyExpr} ORDER BY revenue DESC, k LIMIT ${Math.max(1, Math.floor(limit))}`,
      [...conditions.params, ...narrow.params],
    );
    return rows.map((r) => ({ key: String(r.k), id: num(r.id), revenue: num(r.revenue), orders: num(r.orders), last: num(r.last) }));
  }

  /** Product page views and add-to-cart events per product. */
  async engagement(scope: Scope): Promise<ProductEngagement[]> {
    const where = scopeWhere('e.time', scope);
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT e.product_id, MAX(e.product_name) AS name, SUM(CASE WHEN e.type = 'product_view' THEN 1 ELSE 0 END) AS views,
              SUM(CASE WHEN e.type = 'add_to_cart' THEN 1 ELSE 0 END) AS adds
         FROM ${this.t('ecommerce_events')} e ${visitorJoins(this.db, 'e', filterDims(scope))}
        WHERE e.type IN ('product_view', 'add_to_cart') AND ${where.sql} GROUP BY e.product_id`,
      where.params,
    );
    return rows.map((r) => ({ product_id: num(r.product_id), product_name: String(r.name ?? ''), views: num(r.views), adds: num(r.adds) }));
  }

  /** Visitors and buyers (visitors with an order) per country of the visitors' sessions. */
  async countries(scope: Scope): Promise<Array<{ country: string; visitors: number; buyers: number }>> {
    const dims = new Set<VisitorDimension>([...filterDims(scope), 'country']);
    const sessions = scopeWhere('ses.time', scope);
    const visitors = await this.db.select<Record<string, unknown>>(
      `SELECT ${DIMENSION_SQL.country} AS k, COUNT(DISTINCT ses.uid) AS n FROM ${this.t('sessions')} ses ${visitorJoins(this.db, null, dims)}
        WHERE ${sessions.sql} GROUP BY ${DIMENSION_SQL.country}`,
      sessions.params,
    );
    const orders = scopeWhere('o.time', scope);
    const buyers = await this.db.select<Record<string, unknown>>(
      `SELECT ${DIMENSION_SQL.country} AS k, COUNT(DISTINCT o.uid) AS n FROM ${this.t('ecommerce_orders')} o ${visitorJoins(this.db, 'o', dims)}
        WHERE o.uid <> '' AND ${orders.sql} GROUP BY ${DIMENSION_SQL.country}`,
      orders.params,
    );
    const bought = new Map(buyers.map((r) => [String(r.k), num(r.n)]));
    return visitors.filter((r) => String(r.k) !== '').map((r) => ({ country: String(r.k), visitors: num(r.n), buyers: bought.get(String(r.k)) ?? 0 }));
  }
}
