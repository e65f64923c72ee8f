import { type Clock, type Database, frag } from '../../../core';
import { dayStart } from '../calendar';
import { num, tbl } from '../db';
import { pathOfStored } from '../ingest/fields';
import { type Condition, type Cube, cubeRows, FUNNEL_CUBE, KIND, ORDER_CUBE, PAGE_CUBE, PRODUCT_CUBE } from '../rollups/cubes';
import { type Plan, planWindow } from '../rollups/plan';
import { REACH, type Reach, reach, variantOf } from '../rollups/reach';
import type { FoldState } from '../rollups/state';
import { unvisitedOrders } from '../rollups/unvisited';
import { type Scope, filterDims } from './scope';

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
export type RevenueDimension = 'campaign' | 'country' | 'device';

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

/** A `sales_products` line: one product, traffic source and currency. */
export interface ProductLine {
  product_id: number;
  source: string;
  currency: string;
  name: string;
  adds: number;
  units: number;
  revenue: number;
}

/** The roll-up columns of a revenue ranking key. */
const RANKED: Readonly<Record<RevenueDimension, { column: string; key: string; id: string; join?: (db: Database) => string }>> = {
  campaign: { column: 'campaign_id', key: 'c.name', id: 'MAX(c.ID)', join: (db) => `JOIN ${tbl(db, 'ecommerce_campaigns')} c ON c.ID = t.campaign_id` },
  country: { column: 'country_code', key: 't.country_code', id: '0' },
  device: { column: 'device', key: 't.device', id: '0' },
};

const byRevenue = <T extends { revenue: number }>(tie: (a: T, b: T) => number) => (a: T, b: T) => b.revenue - a.revenue || tie(a, b);

/**
 * The shop figures of a window (README "Definitions"), read from the daily
 * roll-ups where the window's days are folded and from the raw events for
 * the rest (README "Roll-ups"): one plan per window, made once per request.
 */
export class ShopQueries {
  private readonly plans = new WeakMap<Scope, Promise<Plan>>();
  private readonly reaches = new WeakMap<Scope, Map<string, Promise<Map<string, Reach>>>>();

  constructor(
    private readonly db: Database,
    private readonly state: FoldState,
    private readonly clock: Clock,
  ) {}

  private plan(scope: Scope): Promise<Plan> {
    let plan = this.plans.get(scope);
    if (!plan) {
      plan = (async () => {
        const folded = await this.state.foldedDays(scope.siteId, scope.range);
        // Never a roll-up for today, also when the clock went back.
        const today = dayStart(this.clock.unix(), scope.timezone);
        return planWindow(scope.range, scope.timezone, folded && { ...folded, to: Math.min(folded.to, today) });
      })();
      this.plans.set(scope, plan);
    }
    return plan;
  }

  private async one(cube: Cube, scope: Scope, select: string, conditions: readonly Condition[] = []): Promise<Record<string, unknown>> {
    const rows = cubeRows(this.db, cube, scope.siteId, await this.plan(scope), [...conditions, ...conditionsOf(scope)], []);
    const [row] = await this.db.select<Record<string, unknown>>(`SELECT ${select} FROM ${rows.sql}`, rows.params);
    return row ?? {};
  }

  /** Rows of `cube` summed by `groupBy`: `select` and `tail` (from GROUP BY on) sum them again over `t`. */
  private async many(cube: Cube, scope: Scope, groupBy: readonly string[], select: string, conditions: readonly Condition[], tail: string): Promise<Array<Record<string, unknown>>> {
    const rows = cubeRows(this.db, cube, scope.siteId, await this.plan(scope), [...conditions, ...conditionsOf(scope)], groupBy);
    return this.db.select<Record<string, unknown>>(`SELECT ${select} FROM ${rows.sql} ${tail}`, rows.params);
  }

  /** Distinct visitors or carts of the window, once per scope and question. */
  private reach(scope: Scope, kind: number, byCountry = false): Promise<Map<string, Reach>> {
    const dims = new Set(filterDims(scope));
    const variant = kind === REACH.visitor ? variantOf(byCountry || dims.has('country'), dims.has('device')) : 0;
    const key = `${kind}|${variant}|${byCountry}`;
    let memo = this.reaches.get(scope);
    if (!memo) this.reaches.set(scope, (memo = new Map()));
    let answer = memo.get(key);
    if (!answer) {
      answer = this.plan(scope).then((plan) => reach(this.db, scope.siteId, plan, { kind, variant, conditions: conditionsOf(scope), byCountry }));
      memo.set(key, answer);
    }
    return answer;
  }

  /** Distinct visitors (uids) of the sessions started in the window. */
  async visitors(scope: Scope): Promise<number> {
    return (await this.reach(scope, REACH.visitor)).get('')?.total ?? 0;
  }

  /**
   * Visitors of the window (as `visitors` counts them) who ordered in the
   * window, so never more than the visitors; and the orders of the window
   * (every currency) from nobody who visited in it: no uid, or no session of
   * that uid in the window.
   */
  async conversions(scope: Scope): Promise<{ converted: number; withoutVisit: number; orders: number }> {
    const [visitors, orders, unvisited] = await Promise.all([
      this.reach(scope, REACH.visitor),
      this.one(ORDER_CUBE, scope, 'COALESCE(SUM(orders), 0) AS n, COALESCE(SUM(no_uid), 0) AS no_uid'),
      this.plan(scope).then((plan) => unvisitedOrders(this.db, scope.siteId, plan, conditionsOf(scope))),
    ]);
    return { converted: visitors.get('')?.converted ?? 0, withoutVisit: num(orders.no_uid) + unvisited, orders: num(orders.n) };
  }

  /**
   * Sessions with an add-to-cart in the window (a cart without a known
   * session counts once per visitor) and how many of them belong to a visitor
   * who ordered in the window.
   */
  async carts(scope: Scope): Promise<{ carts: number; converted: number }> {
    const r = (await this.reach(scope, REACH.cart)).get('');
    return { carts: r?.total ?? 0, converted: r?.converted ?? 0 };
  }

  /** Orders placed in the window and revenue in one currency: order totals minus the refunds made in the window (`refunded`). */
  async orders(scope: Scope, currency: string): Promise<{ orders: number; revenue: number; refunded: number }> {
    const row = await this.one(ORDER_CUBE, scope, 'COALESCE(SUM(orders), 0) AS n, COALESCE(SUM(sold), 0) AS sold, COALESCE(SUM(refunded), 0) AS refunded', [{ col: 'currency', value: currency }]);
    return { orders: num(row.n), revenue: num(row.sold) - num(row.refunded), refunded: num(row.refunded) };
  }

  /** The stored page URLs of `pages`: its URLs, and the window's product pages whose path is one of its paths. */
  private async pageUrls(scope: Scope, pages: PageSelection): Promise<string[]> {
    const urls = new Set(pages.urls);
    if (pages.paths.length) {
      const paths = new Set(pages.paths);
      const rows = cubeRows(this.db, PAGE_CUBE, scope.siteId, await this.plan(scope), [], ['url']);
      const viewed = await this.db.select<{ url: string }>(`SELECT url FROM ${rows.sql} GROUP BY url`, rows.params);
      for (const { url } of viewed) if (paths.has(pathOfStored(url))) urls.add(url);
    }
    return [...urls];
  }

  /** Product page views of the window on `pages` only. */
  private async pageViews(scope: Scope, pages: PageSelection): Promise<number> {
    const urls = await this.pageUrls(scope, pages);
    if (urls.length === 0) return 0;
    return num((await this.one(PAGE_CUBE, scope, 'COALESCE(SUM(views), 0) AS n', [{ col: 'url', values: urls }])).n);
  }

  /** The five funnel stages; product views only on `pages` when given. */
  async funnel(scope: Scope, pages: PageSelection | null): Promise<FunnelCounts> {
    const [counts, orders, views] = await Promise.all([
      this.one(FUNNEL_CUBE, scope, 'COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(views), 0) AS views, COALESCE(SUM(carts), 0) AS carts, COALESCE(SUM(checkouts), 0) AS checkouts'),
      this.one(ORDER_CUBE, scope, 'COALESCE(SUM(orders), 0) AS n'),
      pages ? this.pageViews(scope, pages) : null,
    ]);
    return { visits: num(counts.visits), views: views ?? num(counts.views), carts: num(counts.carts), checkouts: num(counts.checkouts), orders: num(orders.n) };
  }

  /**
   * Products by line revenue (quantity × price) in one currency, less the
   * units and value refunded in the window; `productId` narrows to one.
   */
  async products(scope: Scope, currency: string, limit: number, productId?: number): Promise<ProductFigures[]> {
    const rows = await this.many(
      PRODUCT_CUBE,
      scope,
      ['product_id', 'kind'],
      'product_id, kind, MAX(name) AS name, SUM(units) AS units, SUM(value) AS value',
      [{ col: 'kind', values: [KIND.sold, KIND.refunded] }, { col: 'currency', value: currency }, ...(productId === undefined ? [] : [{ col: 'product_id', value: productId }])],
      'GROUP BY product_id, kind ORDER BY kind',
    );
    const byProduct = new Map<number, ProductFigures>();
    for (const r of rows) {
      const id = num(r.product_id);
      const sign = num(r.kind) === KIND.refunded ? -1 : 1;
      // The name the sold lines carry, else the refunded ones'.
      const p = byProduct.get(id) ?? { product_id: id, product_name: String(r.name), quantity: 0, revenue: 0 };
      p.quantity += sign * num(r.units);
      p.revenue += sign * num(r.value);
      byProduct.set(id, p);
    }
    return [...byProduct.values()].sort(byRevenue((a, b) => a.product_id - b.product_id)).slice(0, Math.max(1, Math.floor(limit)));
  }

  /**
   * Order revenue in one currency by campaign, country or device, less the
   * refunds made in the window (unknown values left out); `key` narrows to
   * one. `orders` and `last` count placed orders only.
   */
  async revenueBy(dim: RevenueDimension, scope: Scope, currency: string, limit: number, key?: string): Promise<RevenueRow[]> {
    const ranked = RANKED[dim];
    const narrow = key === undefined ? frag('') : frag(` AND ${ranked.key} = ?`, [key]);
    const rows = cubeRows(this.db, ORDER_CUBE, scope.siteId, await this.plan(scope), [{ col: 'currency', value: currency }, ...conditionsOf(scope)], [ranked.column]);
    const found = await this.db.select<Record<string, unknown>>(
      `SELECT ${ranked.key} AS k, ${ranked.id} AS id, SUM(t.sold) - SUM(t.refunded) AS revenue, SUM(t.orders) AS orders, MAX(t.last_order) AS last
         FROM ${rows.sql} ${ranked.join?.(this.db) ?? ''} WHERE ${ranked.key} <> ''${narrow.sql} GROUP BY ${ranked.key}`,
      [...rows.params, ...narrow.params],
    );
    return found
      .map((r) => ({ key: String(r.k), id: num(r.id), revenue: num(r.revenue), orders: num(r.orders), last: num(r.last) }))
      .sort(byRevenue((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)))
      .slice(0, Math.max(1, Math.floor(limit)));
  }

  /** Product page views and add-to-cart events per product. */
  async engagement(scope: Scope): Promise<ProductEngagement[]> {
    const rows = await this.many(
      PRODUCT_CUBE,
      scope,
      ['product_id', 'kind'],
      `product_id, MAX(name) AS name, SUM(CASE WHEN kind = ${KIND.view} THEN events ELSE 0 END) AS views, SUM(CASE WHEN kind = ${KIND.cart} THEN events ELSE 0 END) AS adds`,
      [{ col: 'kind', values: [KIND.cart, KIND.view] }],
      'GROUP BY product_id',
    );
    return rows.map((r) => ({ product_id: num(r.product_id), product_name: String(r.name ?? ''), views: num(r.views), adds: num(r.adds) }));
  }

  /** Visitors and buyers (those of them who ordered in the window, as `conversions` counts them) per country of the visitors' sessions. */
  async countries(scope: Scope): Promise<Array<{ country: string; visitors: number; buyers: number }>> {
    const byCountry = await this.reach(scope, REACH.visitor, true);
    return [...byCountry.entries()].filter(([k]) => k !== '').map(([country, r]) => ({ country, visitors: r.total, buyers: r.converted }));
  }

  /** Per product, traffic source and currency: units and revenue sold less those refunded in the window, add-to-cart events. */
  async productLines(scope: Scope): Promise<ProductLine[]> {
    const rows = await this.many(
      PRODUCT_CUBE,
      scope,
      ['product_id', 'source', 'currency', 'kind'],
      'product_id, source, currency, kind, MAX(name) AS name, SUM(units) AS units, SUM(value) AS value, SUM(events) AS events',
      [{ col: 'kind', values: [KIND.sold, KIND.refunded, KIND.cart] }],
      'GROUP BY product_id, source, currency, kind ORDER BY kind',
    );
    const byKey = new Map<string, ProductLine>();
    for (const r of rows) {
      const l: ProductLine = { product_id: num(r.product_id), source: String(r.source ?? ''), currency: String(r.currency), name: String(r.name), adds: 0, units: 0, revenue: 0 };
      const id = `${l.product_id}\n${l.source}\n${l.currency}`;
      // A line is named by its sold items, else its refunded ones, else its carts.
      const line = byKey.get(id) ?? l;
      byKey.set(id, line);
      const kind = num(r.kind);
      if (kind === KIND.cart) line.adds += num(r.events);
      else {
        const sign = kind === KIND.refunded ? -1 : 1;
        line.units += sign * num(r.units);
        line.revenue += sign * num(r.value);
      }
    }
    return [...byKey.values()];
  }
}

/** The roll-up conditions of a scope's visitor filters. */
function conditionsOf(scope: Scope): Condition[] {
  return scope.filters.map((f) => ({ col: f.dimension === 'country' ? 'country_code' : 'device', value: String(f.value) }));
}
