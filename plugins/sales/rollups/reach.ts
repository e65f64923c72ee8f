import type { Transaction } from 'sequelize';
import { type Database, frag, joinFrags, type TimeRange } from '../../../core';
import { dayStart } from '../calendar';
import { insertRows, num, tbl } from '../db';
import { DIMENSION_SQL, visitorJoins } from '../data/scope';
import { type Condition, conditionsOn, type Cube, storedRows } from './cubes';
import type { Plan } from './plan';

/**
 * Distinct visitors and carts of a window, and how many of them belong to a
 * visitor who ordered in it, from day roll-ups.
 *
 * A key (a visitor uid, a cart's session) active in the window counts once:
 * on its first active day in the window, that is the active day whose
 * previous activity (`prev_day`) lies before the window. Whether its visitor
 * ordered in the window [A, B) is told by the orders nearest to that day:
 * the latest one before the day ends (`order_before` >= A) or the first one
 * after it (`order_after` < B). A fold keeps per day the number of keys by
 * these three days, which never change for a past day unless an event
 * arrives late (ingestion then marks the days it changes stale).
 */
export const REACH = { visitor: 1, cart: 2 } as const;

/** The reach tables as a roll-up: keys counted by these dimensions. Their days are folded from entries (`foldReachDay`), not from raw rows. */
export const REACH_CUBE: Cube = {
  stem: 'ecommerce_reach',
  dims: ['kind', 'variant', 'country_code', 'device', 'prev_day', 'order_before', 'order_after'],
  measures: { n: 'SUM' },
  sources: () => [],
};

/** Which visitor dimensions a visitor entry keeps apart (filters on them count per dimension value). */
export const variantOf = (country: boolean, device: boolean): number => (country ? 1 : 0) + (device ? 2 : 0);
const VARIANTS = [0, 1, 2, 3] as const;

/** A key's activity on a day (or raw range): its visitor dimensions, previous activity and nearest orders (unix times). */
export interface Entry {
  country_code: string;
  device: string;
  prev: number | null;
  before: number | null;
  after: number | null;
}

/** Counts of a window: keys, and keys whose visitor ordered in the window. */
export interface Reach {
  total: number;
  converted: number;
}

/** The orders of key `uid` nearest to the range [x, y): the latest before y, the first from y on. */
function nearestOrders(db: Database, uid: string, siteId: number, y: number) {
  const orders = tbl(db, 'ecommerce_orders');
  const near = (agg: string, op: string) => `(SELECT ${agg}(o.time) FROM ${orders} o WHERE o.site_id = ? AND o.uid = ${uid} AND o.uid <> '' AND o.time ${op} ?)`;
  return frag(`${near('MAX', '<')} AS order_before, ${near('MIN', '>=')} AS order_after`, [siteId, y, siteId, y]);
}

const entryOf = (r: Record<string, unknown>): Entry => ({
  country_code: String(r.country_code ?? ''),
  device: String(r.device ?? ''),
  prev: r.prev === null || r.prev === undefined ? null : num(r.prev),
  before: r.order_before === null || r.order_before === undefined ? null : num(r.order_before),
  after: r.order_after === null || r.order_after === undefined ? null : num(r.order_after),
});

/**
 * The visitors of sessions in [x, y): one entry per uid (and per country
 * and/or device as `variant` keeps them apart), with the uid's previous
 * session (of the same country/device) before x.
 */
export async function visitorEntries(db: Database, siteId: number, range: TimeRange, variant: number, conditions: readonly Condition[] = [], t?: Transaction): Promise<Entry[]> {
  const country = (variant & 1) !== 0;
  const device = (variant & 2) !== 0;
  const sessions = tbl(db, 'sessions');
  const dims = [country ? `${DIMENSION_SQL.country}` : "''", device ? `${DIMENSION_SQL.device}` : "''"];
  const grouped = ['ses.uid', ...(country ? [DIMENSION_SQL.country] : []), ...(device ? [DIMENSION_SQL.device] : [])];
  const wanted = [...(country ? ['country' as const] : []), ...(device ? ['device' as const] : [])];
  const same = [
    ...(country ? ["COALESCE(ploc.country_code, '') = a.country_code"] : []),
    ...(device ? ["COALESCE(pdv.name, '') = a.device"] : []),
  ].map((c) => ` AND ${c}`);
  const previousJoins = [
    ...(country ? [`LEFT JOIN ${tbl(db, 'locations')} ploc ON ploc.city_code = p.city_code`] : []),
    ...(device ? [`LEFT JOIN ${tbl(db, 'devices')} pdv ON pdv.ID = p.device_id`] : []),
  ].join(' ');
  // `+` keeps SQLite on the uid index of the sessions (the site and time are checked on the few rows it finds).
  const prev = frag(`(SELECT MAX(p.time) FROM ${sessions} p ${previousJoins} WHERE p.uid = a.uid AND +p.site_id = ? AND +p.time < ?${same.join('')}) AS prev`, [siteId, range.start]);
  const orders = nearestOrders(db, 'a.uid', siteId, range.end);
  const narrow = onVisitor(conditions);
  const active = frag(
    `SELECT ses.uid, ${dims[0]} AS country_code, ${dims[1]} AS device FROM ${sessions} ses ${visitorJoins(db, null, wanted)}
      WHERE ses.site_id = ? AND ses.time >= ? AND ses.time < ?${narrow.sql} GROUP BY ${grouped.join(', ')}`,
    [siteId, range.start, range.end, ...narrow.params],
  );
  const q = joinFrags([frag('SELECT a.country_code, a.device,'), prev, frag(','), orders, frag(`FROM (${active.sql}) a`, active.params)], ' ');
  return (await db.select<Record<string, unknown>>(q.sql, q.params, t)).map(entryOf);
}

/**
 * The carts of [x, y): one entry per session with an add-to-cart (per
 * visitor uid for carts without a known session), with its previous
 * add-to-cart before x and its visitor's nearest orders.
 */
export async function cartEntries(db: Database, siteId: number, range: TimeRange, conditions: readonly Condition[] = [], t?: Transaction): Promise<Entry[]> {
  const events = tbl(db, 'ecommerce_events');
  const cart = "type = 'add_to_cart'";
  const inRange = 'e.time >= ? AND e.time < ?';
  const narrow = onVisitor(conditions);
  const bySession = frag(
    `SELECT e.session_id AS sid, MAX(e.uid) AS uid, ${DIMENSION_SQL.country} AS country_code, ${DIMENSION_SQL.device} AS device
       FROM ${events} e ${visitorJoins(db, 'e', ['country', 'device'])}
      WHERE e.site_id = ? AND e.${cart} AND e.session_id > 0 AND ${inRange}${narrow.sql} GROUP BY e.session_id, ${DIMENSION_SQL.country}, ${DIMENSION_SQL.device}`,
    [siteId, range.start, range.end, ...narrow.params],
  );
  // Carts without a known session have neither country nor device: a condition on them compares ''.
  const sessionless = onVisitor(conditions, { country: "''", device: "''" });
  const byUid = frag(`SELECT e.uid FROM ${events} e WHERE e.site_id = ? AND e.${cart} AND e.session_id = 0 AND ${inRange}${sessionless.sql} GROUP BY e.uid`, [
    siteId,
    range.start,
    range.end,
    ...sessionless.params,
  ]);
  const sessionPrev = frag(`(SELECT MAX(p.time) FROM ${events} p WHERE p.session_id = a.sid AND p.${cart} AND +p.site_id = ? AND p.time < ?) AS prev`, [siteId, range.start]);
  const uidPrev = frag(`(SELECT MAX(p.time) FROM ${events} p WHERE p.site_id = ? AND p.uid = a.uid AND p.${cart} AND p.session_id = 0 AND p.time < ?) AS prev`, [siteId, range.start]);
  const q = joinFrags(
    [
      frag('SELECT a.country_code, a.device,'),
      sessionPrev,
      frag(','),
      nearestOrders(db, 'a.uid', siteId, range.end),
      frag(`FROM (${bySession.sql}) a UNION ALL SELECT '' AS country_code, '' AS device,`, bySession.params),
      uidPrev,
      frag(','),
      nearestOrders(db, 'a.uid', siteId, range.end),
      frag(`FROM (${byUid.sql}) a`, byUid.params),
    ],
    ' ',
  );
  return (await db.select<Record<string, unknown>>(q.sql, q.params, t)).map(entryOf);
}

/** ` AND` each condition on country_code or device, as the visitor's session gives them. */
function onVisitor(conditions: readonly Condition[], exprs: Readonly<Record<'country' | 'device', string>> = DIMENSION_SQL) {
  const parts = conditionsOn((col) => (col === 'country_code' ? exprs.country : exprs.device), conditions);
  return joinFrags(parts.map((p) => frag(` AND ${p.sql}`, p.params)), '');
}

/** Whether an entry of a raw range counts in the window, and whether its visitor ordered in it. */
function countsIn(e: Entry, window: TimeRange): { first: boolean; ordered: boolean } {
  return {
    first: e.prev === null || e.prev < window.start,
    ordered: (e.before !== null && e.before >= window.start) || (e.after !== null && e.after < window.end),
  };
}

/** Replaces the reach rows of one site and day with its entries, counted by their previous activity and nearest orders (as days). */
export async function foldReachDay(db: Database, siteId: number, day: number, end: number, tz: string, t: Transaction): Promise<void> {
  await db.execute(`DELETE FROM ${tbl(db, 'ecommerce_reach_days')} WHERE site_id = ? AND day = ?`, [siteId, day], t);
  const rows = new Map<string, Record<string, unknown>>();
  const add = (kind: number, variant: number, entries: readonly Entry[]) => {
    for (const e of entries) {
      const sameDay = e.before !== null && e.before >= day;
      const key = {
        kind,
        variant,
        country_code: e.country_code,
        device: e.device,
        prev_day: e.prev === null ? 0 : dayStart(e.prev, tz),
        order_before: sameDay ? day : e.before === null ? 0 : dayStart(e.before, tz),
        order_after: sameDay || e.after === null ? 0 : dayStart(e.after, tz),
      };
      const id = Object.values(key).join('\n');
      const row = rows.get(id) ?? { site_id: siteId, day, ...key, n: 0 };
      row.n = num(row.n) + 1;
      rows.set(id, row);
    }
  };
  const range = { start: day, end };
  for (const variant of VARIANTS) add(REACH.visitor, variant, await visitorEntries(db, siteId, range, variant, [], t));
  add(REACH.cart, 0, await cartEntries(db, siteId, range, [], t));
  if (rows.size) await insertRows(db, 'ecommerce_reach_days', [...rows.values()], t);
}

/** What one reach figure reads: visitors (in a variant) or carts, narrowed by conditions on country and device. */
export interface ReachQuery {
  kind: number;
  variant: number;
  conditions: readonly Condition[];
  /** Counts per country instead of one total. */
  byCountry?: boolean;
}

/** Keys of a window and those whose visitor ordered in it, per country when asked ('' the total without it). */
export async function reach(db: Database, siteId: number, plan: Plan, q: ReachQuery): Promise<Map<string, Reach>> {
  const { start, end } = plan.window;
  const out = new Map<string, Reach>();
  const tally = (key: string, total: number, converted: number) => {
    const r = out.get(key) ?? { total: 0, converted: 0 };
    r.total += total;
    r.converted += converted;
    out.set(key, r);
  };
  // A key counts on its first active day in the window: the one whose previous activity is before it.
  const parts = storedRows(
    db,
    REACH_CUBE,
    siteId,
    plan,
    [{ col: 'kind', value: q.kind }, { col: 'variant', value: q.variant }, ...q.conditions],
    ['country_code', 'order_before', 'order_after'],
    frag('prev_day < ?', [start]),
  );
  if (parts.length) {
    const union = joinFrags(parts, ' UNION ALL ');
    const key = q.byCountry ? 'country_code' : "''";
    for (const r of await db.select<Record<string, unknown>>(
      `SELECT ${key} AS k, SUM(n) AS total, SUM(CASE WHEN order_before >= ? OR (order_after > 0 AND order_after < ?) THEN n ELSE 0 END) AS converted
         FROM (${union.sql}) t GROUP BY ${key}`,
      [start, end, ...union.params],
    )) {
      tally(String(r.k), num(r.total), num(r.converted));
    }
  }
  for (const range of plan.raw) {
    const entries = q.kind === REACH.visitor ? await visitorEntries(db, siteId, range, q.variant, q.conditions) : await cartEntries(db, siteId, range, q.conditions);
    for (const e of entries) {
      const { first, ordered } = countsIn(e, plan.window);
      if (first) tally(q.byCountry ? e.country_code : '', 1, ordered ? 1 : 0);
    }
  }
  return out;
}
