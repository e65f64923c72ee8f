import type { Transaction } from 'sequelize';
import { type Database, type Frag, frag, joinFrags, type TimeRange } from '../../../core';
import { tbl } from '../db';
import { DIMENSION_SQL, visitorJoins } from '../data/scope';
import type { Plan } from './plan';

/**
 * An additive roll-up: rows of raw events summed per day, and per month,
 * quarter and year, by a few dimensions. Every figure read from it is the
 * same SQL over three kinds of rows put together with UNION ALL, so sums and
 * maxima (names) come out as the raw events give them: block rows, day rows
 * and, for the days not folded, the raw events themselves.
 */
export interface Cube {
  /** Table name stem: `<stem>_days` (column `day`) and `<stem>_months` (columns `month` and `months`, its length). */
  stem: string;
  dims: readonly string[];
  measures: Readonly<Record<string, 'SUM' | 'MAX'>>;
  /** The raw rows, each an expression per column of the roll-up. */
  sources(db: Database): readonly Source[];
}

export interface Source {
  from: string;
  /** Column holding the row's site. */
  site: string;
  /** Column holding the time the row counts at. */
  time: string;
  /** A fixed condition of the source (code, never input). */
  where?: string;
  cols: Readonly<Record<string, string>>;
}

/** A condition on a roll-up column, applied to every part. */
export type Condition = { col: string; value: string | number } | { col: string; values: ReadonlyArray<string | number> };

const VISITOR_COLS = { country_code: DIMENSION_SQL.country, device: DIMENSION_SQL.device };
const joinsOf = (db: Database, alias: string | null) => visitorJoins(db, alias, ['country', 'device']);

/** Orders and refunds per currency, campaign, country and device: orders, orders without a visitor uid, money sold and refunded, latest order. */
export const ORDER_CUBE: Cube = {
  stem: 'ecommerce_order',
  dims: ['currency', 'campaign_id', 'country_code', 'device'],
  measures: { orders: 'SUM', no_uid: 'SUM', sold: 'SUM', refunded: 'SUM', last_order: 'MAX' },
  sources: (db) => [
    {
      from: `${tbl(db, 'ecommerce_orders')} o ${joinsOf(db, 'o')}`,
      site: 'o.site_id',
      time: 'o.time',
      cols: { currency: 'o.currency', campaign_id: 'o.campaign_id', ...VISITOR_COLS, orders: '1', no_uid: "CASE WHEN o.uid = '' THEN 1 ELSE 0 END", sold: 'o.total', refunded: '0', last_order: 'o.time' },
    },
    {
      from: `${tbl(db, 'ecommerce_refunds')} r JOIN ${tbl(db, 'ecommerce_orders')} o ON o.ID = r.order_ref ${joinsOf(db, 'o')}`,
      site: 'r.site_id',
      time: 'r.time',
      cols: { currency: 'o.currency', campaign_id: 'o.campaign_id', ...VISITOR_COLS, orders: '0', no_uid: '0', sold: '0', refunded: 'r.amount', last_order: '0' },
    },
  ],
};

/** Product kinds of `ecommerce_product_*` rows. */
export const KIND = { sold: 1, refunded: 2, cart: 3, view: 4 } as const;

const productEvents = (db: Database, type: string, kind: number): Source => ({
  from: `${tbl(db, 'ecommerce_events')} e ${joinsOf(db, 'e')}`,
  site: 'e.site_id',
  time: 'e.time',
  where: `e.type = '${type}'`,
  cols: { kind: String(kind), product_id: 'e.product_id', currency: 'e.currency', source: 'e.traffic_source', ...VISITOR_COLS, units: '0', value: '0', events: '1', name: 'e.product_name' },
});

/** Per product, currency, traffic source, country and device: units and value sold and refunded, add-to-cart events and product views, with the names they carried. */
export const PRODUCT_CUBE: Cube = {
  stem: 'ecommerce_product',
  dims: ['kind', 'product_id', 'currency', 'source', 'country_code', 'device'],
  measures: { units: 'SUM', value: 'SUM', events: 'SUM', name: 'MAX' },
  sources: (db) => {
    const items = (table: string, kind: number, value: string): Source => ({
      from: `${tbl(db, table)} i JOIN ${tbl(db, 'ecommerce_orders')} o ON o.ID = i.order_ref ${joinsOf(db, 'o')}`,
      site: 'i.site_id',
      time: 'i.time',
      cols: { kind: String(kind), product_id: 'i.product_id', currency: 'i.currency', source: 'o.traffic_source', ...VISITOR_COLS, units: 'i.quantity', value, events: '0', name: 'i.product_name' },
    });
    return [
      items('ecommerce_order_items', KIND.sold, 'i.quantity * i.price'),
      items('ecommerce_refund_items', KIND.refunded, 'i.amount'),
      productEvents(db, 'add_to_cart', KIND.cart),
      productEvents(db, 'product_view', KIND.view),
    ];
  },
};

/** Per country and device: sessions, product views, add-to-cart events and checkout visits. */
export const FUNNEL_CUBE: Cube = {
  stem: 'ecommerce_funnel',
  dims: ['country_code', 'device'],
  measures: { visits: 'SUM', views: 'SUM', carts: 'SUM', checkouts: 'SUM' },
  sources: (db) => [
    {
      from: `${tbl(db, 'sessions')} ses ${joinsOf(db, null)}`,
      site: 'ses.site_id',
      time: 'ses.time',
      cols: { ...VISITOR_COLS, visits: '1', views: '0', carts: '0', checkouts: '0' },
    },
    {
      from: `${tbl(db, 'ecommerce_events')} e ${joinsOf(db, 'e')}`,
      site: 'e.site_id',
      time: 'e.time',
      cols: {
        ...VISITOR_COLS,
        visits: '0',
        views: "CASE WHEN e.type = 'product_view' THEN 1 ELSE 0 END",
        carts: "CASE WHEN e.type = 'add_to_cart' THEN 1 ELSE 0 END",
        checkouts: "CASE WHEN e.type = 'checkout_visit' THEN 1 ELSE 0 END",
      },
    },
  ],
};

/** Product page views per page (as stored: without query string, fragment and trailing slash), country and device, for `selected_pages`. */
export const PAGE_CUBE: Cube = {
  stem: 'ecommerce_page',
  dims: ['url', 'country_code', 'device'],
  measures: { views: 'SUM' },
  sources: (db) => [
    { from: `${tbl(db, 'ecommerce_events')} e ${joinsOf(db, 'e')}`, site: 'e.site_id', time: 'e.time', where: "e.type = 'product_view'", cols: { url: 'e.url', ...VISITOR_COLS, views: '1' } },
  ],
};

export const CUBES: readonly Cube[] = [ORDER_CUBE, PRODUCT_CUBE, FUNNEL_CUBE, PAGE_CUBE];

/** `column` inside one of `ranges`; never true without ranges. */
export function inRanges(column: string, ranges: readonly TimeRange[]): Frag {
  if (ranges.length === 0) return frag('1 = 0');
  return frag(`(${ranges.map(() => `(${column} >= ? AND ${column} < ?)`).join(' OR ')})`, ranges.flatMap((r) => [r.start, r.end]));
}

/** Each condition as SQL on the expression `expr` gives for its column. */
export function conditionsOn(expr: (col: string) => string, conditions: readonly Condition[]): Frag[] {
  return conditions.map((c) =>
    'values' in c ? frag(`${expr(c.col)} IN (${c.values.map(() => '?').join(', ') || "''"})`, [...c.values]) : frag(`${expr(c.col)} = ?`, [c.value]),
  );
}

const columnsOf = (cube: Cube) => [...cube.dims, ...Object.keys(cube.measures)];

/** A constant a source gives a column (its product kind), which a condition can rule the whole source out on. */
const constant = (expr: string): number | null => (/^\d+$/.test(expr) ? Number(expr) : null);

/** Whether a source's constant columns can meet the conditions at all. */
function mayMatch(s: Source, conditions: readonly Condition[]): boolean {
  return conditions.every((c) => {
    const fixed = constant(s.cols[c.col]!);
    return fixed === null || ('value' in c ? c.value === fixed : c.values.includes(fixed));
  });
}

/**
 * The raw rows of `cube` in `ranges`, each column named as in the roll-up,
 * summed by `groupBy` (every dimension when the rows are folded).
 */
export function rawRows(db: Database, cube: Cube, siteId: number, ranges: readonly TimeRange[], conditions: readonly Condition[], groupBy: readonly string[]): Frag[] {
  return cube
    .sources(db)
    .filter((s) => mayMatch(s, conditions))
    .map((s) => {
      const where = joinFrags(
        [frag(`${s.site} = ?`, [siteId]), ...(s.where ? [frag(s.where)] : []), inRanges(s.time, ranges), ...conditionsOn((col) => s.cols[col]!, conditions)],
        ' AND ',
      );
      // A constant (the kind) is no grouping key: GROUP BY 3 would name the third column.
      const keys = groupBy.map((col) => s.cols[col]!).filter((expr) => constant(expr) === null);
      const select = [...groupBy.map((col) => `${s.cols[col]} AS ${col}`), ...Object.entries(cube.measures).map(([m, agg]) => `${agg}(${s.cols[m]}) AS ${m}`)];
      return frag(`SELECT ${select.join(', ')} FROM ${s.from} WHERE ${where.sql}${keys.length ? ` GROUP BY ${keys.join(', ')}` : ''}`, where.params);
    });
}

/**
 * The stored rows of `cube` for the folded part of a plan (blocks of
 * months, then days) that meet `conditions` and `where`, summed by `groupBy`.
 */
export function storedRows(db: Database, cube: Cube, siteId: number, plan: Plan, conditions: readonly Condition[], groupBy: readonly string[], where: Frag = frag('1 = 1')): Frag[] {
  const select = [...groupBy, ...Object.entries(cube.measures).map(([m, agg]) => `${agg}(${m}) AS ${m}`)].join(', ');
  const grouped = groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '';
  const part = (table: string, span: Frag[]) => {
    const all = joinFrags([frag('site_id = ?', [siteId]), ...span, ...conditionsOn((col) => col, conditions), where], ' AND ');
    return frag(`SELECT ${select} FROM ${tbl(db, table)} WHERE ${all.sql}${grouped}`, all.params);
  };
  return [
    ...plan.blocks.map((b) => part(`${cube.stem}_months`, [frag('months = ?', [b.months]), inRanges('month', b.ranges)])),
    ...(plan.days.length ? [part(`${cube.stem}_days`, [inRanges('day', plan.days)])] : []),
  ];
}

/**
 * Every row of `cube` a plan reads, summed by `groupBy` within each kind of
 * row (blocks of months, days and raw events), as one derived table `t` for the caller to sum
 * again with the cube's aggregates (SUM of sums, MAX of maxima).
 */
export function cubeRows(db: Database, cube: Cube, siteId: number, plan: Plan, conditions: readonly Condition[], groupBy: readonly string[]): Frag {
  const parts = [...storedRows(db, cube, siteId, plan, conditions, groupBy), ...(plan.raw.length ? rawRows(db, cube, siteId, plan.raw, conditions, groupBy) : [])];
  const union = joinFrags(parts.length ? parts : rawRows(db, cube, siteId, [], [], groupBy).slice(0, 1), ' UNION ALL ');
  return frag(`(${union.sql}) t`, union.params);
}

/** Replaces the day rows of `cube` for one site and day with the sums of its raw events. */
export async function foldCubeDay(db: Database, cube: Cube, siteId: number, day: number, end: number, t: Transaction): Promise<void> {
  const table = tbl(db, `${cube.stem}_days`);
  await db.execute(`DELETE FROM ${table} WHERE site_id = ? AND day = ?`, [siteId, day], t);
  const union = joinFrags(rawRows(db, cube, siteId, [{ start: day, end }], [], cube.dims), ' UNION ALL ');
  const measures = Object.entries(cube.measures);
  await db.execute(
    `INSERT INTO ${table} (site_id, day, ${columnsOf(cube).join(', ')})
     SELECT ?, ?, ${cube.dims.join(', ')}, ${measures.map(([m, agg]) => `${agg}(${m})`).join(', ')} FROM (${union.sql}) t GROUP BY ${cube.dims.join(', ')}`,
    [siteId, day, ...union.params],
    t,
  );
}

/**
 * Replaces the rows of `cube` for one site and calendar block [start, end)
 * of `months` months with the sums of its day rows (a month) or of its
 * month rows (a quarter or a year).
 */
export async function foldCubeBlock(db: Database, cube: Cube, siteId: number, start: number, months: number, end: number, t: Transaction): Promise<void> {
  const table = tbl(db, `${cube.stem}_months`);
  await db.execute(`DELETE FROM ${table} WHERE site_id = ? AND month = ? AND months = ?`, [siteId, start, months], t);
  const measures = Object.entries(cube.measures);
  const from = months === 1 ? frag(`${tbl(db, `${cube.stem}_days`)} WHERE site_id = ? AND day >= ? AND day < ?`, [siteId, start, end]) : frag(`${table} WHERE site_id = ? AND months = 1 AND month >= ? AND month < ?`, [siteId, start, end]);
  await db.execute(
    `INSERT INTO ${table} (site_id, month, months, ${columnsOf(cube).join(', ')})
     SELECT site_id, ?, ?, ${cube.dims.join(', ')}, ${measures.map(([m, agg]) => `${agg}(${m})`).join(', ')}
       FROM ${from.sql} GROUP BY site_id, ${cube.dims.join(', ')}`,
    [start, months, ...from.params],
    t,
  );
}
