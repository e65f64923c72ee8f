import { type Database, type Frag, frag, joinFrags } from '../../../core';
import { num, tbl } from '../db';
import { pathOfStored } from '../ingest/fields';
import { ITEM_ROWS, MONEY_KINDS, ORDER_ROWS } from './money-rows';
import { DIMENSION_SQL, type Scope, type VisitorDimension, filterDims, scopeWhere, visitorJoins } from './scope';

export interface FunnelCounts {
  visits: number;
  views: number;
  carts: number;
  checkouts: number;
  orders: number;
}

/** The product pages a funnel counts: stored page URLs, and site paths matched on any host. */
export interface PageSelection {
  urls: string[];
  paths: string[];
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

  /** `uid IN (the visitors with an order in the window)`, for `column` holding a uid. */
  private orderedIn(column: string, scope: Scope): Frag {
    return frag(`${column} IN (SELECT o.uid FROM ${this.t('ecommerce_orders')} o WHERE o.site_id = ? AND o.uid <> '' AND o.time >= ? AND o.time < ?)`, [
      scope.siteId,
      scope.range.start,
      scope.range.end,
    ]);
  }

  /**
   * Visitors of the window (as `visitors` counts them) who ordered in the
   * window, so never more than the visitors; and the orders of the window
   * (every currency) from nobody who visited in it: no uid, or no session of
   * that uid in the window.
   */
  async conversions(scope: Scope): Promise<{ converted: number; withoutVisit: number; orders: number }> {
    const sessions = scopeWhere('ses.time', scope);
    const ordered = this.orderedIn('ses.uid', scope);
    const converted = await this.one(
      frag(
        `SELECT COUNT(DISTINCT ses.uid) AS n FROM ${this.t('sessions')} ses ${visitorJoins(this.db, null, filterDims(scope))}
          WHERE ${sessions.sql} AND ${ordered.sql}`,
        [...sessions.params, ...ordered.params],
      ),
    );
    const orders = scopeWhere('o.time', scope);
    const counts = await this.one(
      frag(
        `SELECT COUNT(*) AS n, SUM(CASE WHEN o.uid = '' OR NOT EXISTS (SELECT 1 FROM ${this.t('sessions')} v WHERE v.site_id = o.site_id AND v.uid = o.uid AND v.time >= ? AND v.time < ?)
                                   THEN 1 ELSE 0 END) AS without_visit
           FROM ${this.t('ecommerce_orders')} o ${visitorJoins(this.db, 'o', filterDims(scope))} WHERE ${orders.sql}`,
        [scope.range.start, scope.range.end, ...orders.params],
      ),
    );
    return { converted: num(converted.n), withoutVisit: num(counts.without_visit), orders: num(counts.n) };
  }

  /**
   * Sessions with an add-to-cart in the window (a cart without a known
   * session counts once per visitor) and how many of them belong to a visitor
   * who ordered in the window.
   */
  async carts(scope: Scope): Promise<{ carts: number; converted: number }> {
    const where = scopeWhere('e.time', scope);
    const count = async (onlyBuyers: boolean) => {
      const ordered = this.orderedIn('e.uid', scope);
      const buyers = onlyBuyers ? frag(` AND ${ordered.sql}`, ordered.params) : frag('');
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

  /** Orders placed in the window and revenue in one currency: order totals minus the refunds made in the window (`refunded`). */
  async orders(scope: Scope, currency: string): Promise<{ orders: number; revenue: number; refunded: number }> {
    const [sold, refunded] = await Promise.all(
      MONEY_KINDS.map(async (kind) => {
        const rows = ORDER_ROWS[kind];
        const where = scopeWhere(rows.time, scope);
        return this.one(
          frag(
            `SELECT COALESCE(SUM(${rows.order}), 0) AS n, COALESCE(SUM(${rows.amount}), 0) AS amount FROM ${rows.from(this.db)} ${visitorJoins(this.db, 'o', filterDims(scope))}
              WHERE o.currency = ? AND ${where.sql}`,
            [currency, ...where.params],
          ),
        );
      }),
    );
    return { orders: num(sold!.n), revenue: num(sold!.amount) + num(refunded!.amount), refunded: -num(refunded!.amount) };
  }

  /** The stored page URLs of `pages`: its URLs, and the window's product pages whose path is one of its paths. */
  private async pageUrls(scope: Scope, pages: PageSelection): Promise<string[]> {
    const urls = new Set(pages.urls);
    if (pages.paths.length) {
      const paths = new Set(pages.paths);
      const where = scopeWhere('e.time', { ...scope, filters: [] });
      const viewed = await this.db.select<{ url: string }>(`SELECT DISTINCT e.url FROM ${this.t('ecommerce_events')} e WHERE e.type = 'product_view' AND ${where.sql}`, where.params);
      for (const { url } of viewed) if (paths.has(pathOfStored(url))) urls.add(url);
    }
    return [...urls];
  }

  /** The five funnel stages; product views only on `pages` when given. */
  async funnel(scope: Scope, pages: PageSelection | null): Promise<FunnelCounts> {
    const dims = filterDims(scope);
    const sessions = scopeWhere('ses.time', scope);
    const visits = await this.one(frag(`SELECT COUNT(*) AS n FROM ${this.t('sessions')} ses ${visitorJoins(this.db, null, dims)} WHERE ${sessions.sql}`, sessions.params));
    const urls = pages ? await this.pageUrls(scope, pages) : null;
    const onPages = urls ? frag(` AND e.url IN (${urls.map(() => '?').join(', ') || "''"})`, urls) : frag('');
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

  /**
   * Products by line revenue (quantity × price) in one currency, less the
   * units and value refunded in the window; `productId` narrows to one.
   */
  async products(scope: Scope, currency: string, limit: number, productId?: number): Promise<ProductFigures[]> {
    const where = scopeWhere('i.time', scope);
    const only = productId === undefined ? frag('') : frag(' AND i.product_id = ?', [productId]);
    const byProduct = new Map<number, ProductFigures>();
    for (const kind of MONEY_KINDS) {
      const rows = ITEM_ROWS[kind];
      for (const r of await this.db.select<Record<string, unknown>>(
        `SELECT i.product_id, MAX(i.product_name) AS product_name, SUM(${rows.quantity}) AS quantity, SUM(${rows.value}) AS revenue
           FROM ${this.t(rows.table)} i ${ordersOf(this.db, scope)}
          WHERE i.currency = ? AND ${where.sql}${only.sql} GROUP BY i.product_id`,
        [currency, ...where.params, ...only.params],
      )) {
        const id = num(r.product_id);
        const p = byProduct.get(id) ?? { product_id: id, product_name: String(r.product_name), quantity: 0, revenue: 0 };
        p.quantity += num(r.quantity);
        p.revenue += num(r.revenue);
        byProduct.set(id, p);
      }
    }
    return [...byProduct.values()].sort((a, b) => b.revenue - a.revenue || a.product_id - b.product_id).slice(0, Math.max(1, Math.floor(limit)));
  }

  /**
   * Order revenue in one currency by campaign, country or device, less the
   * refunds made in the window (unknown values left out); `key` narrows to
   * one. `orders` and `last` count placed orders only.
   */
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
    const narrow = key === undefined ? frag('') : frag(` AND ${keyExpr} = ?`, [key]);
    const byKey = new Map<string, RevenueRow>();
    for (const kind of MONEY_KINDS) {
      const rows = ORDER_ROWS[kind];
      const conditions = joinFrags([frag('o.currency = ?', [currency]), scopeWhere(rows.time, scope), frag(`${keyExpr} <> ''`)], ' AND ');
      for (const r of await this.db.select<Record<string, unknown>>(
        `SELECT ${keyExpr} AS k, ${idExpr} AS id, COALESCE(SUM(${rows.amount}), 0) AS revenue, SUM(${rows.order}) AS orders, MAX(CASE WHEN ${rows.order} = 1 THEN o.time END) AS last
           FROM ${rows.from(this.db)} ${join} ${visitorJoins(this.db, 'o', dims)}
          WHERE ${conditions.sql}${narrow.sql} GROUP BY ${keyExpr}`,
        [...conditions.params, ...narrow.params],
      )) {
        const k = String(r.k);
        const row = byKey.get(k) ?? { key: k, id: num(r.id), revenue: 0, orders: 0, last: 0 };
        row.revenue += num(r.revenue);
        row.orders += num(r.orders);
        row.last = Math.max(row.last, num(r.last));
        byKey.set(k, row);
      }
    }
    return [...byKey.values()].sort((a, b) => b.revenue - a.revenue || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, Math.max(1, Math.floor(limit)));
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

  /** Visitors and buyers (those of them who ordered in the window, as `conversions` counts them) per country of the visitors' sessions. */
  async countries(scope: Scope): Promise<Array<{ country: string; visitors: number; buyers: number }>> {
    const dims = new Set<VisitorDimension>([...filterDims(scope), 'country']);
    const ordered = this.orderedIn('ses.uid', scope);
    const sessions = scopeWhere('ses.time', scope);
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT ${DIMENSION_SQL.country} AS k, COUNT(DISTINCT ses.uid) AS n, COUNT(DISTINCT CASE WHEN ${ordered.sql} THEN ses.uid END) AS b
         FROM ${this.t('sessions')} ses ${visitorJoins(this.db, null, dims)}
        WHERE ${sessions.sql} GROUP BY ${DIMENSION_SQL.country}`,
      [...ordered.params, ...sessions.params],
    );
    return rows.filter((r) => String(r.k) !== '').map((r) => ({ country: String(r.k), visitors: num(r.n), buyers: num(r.b) }));
  }
}
