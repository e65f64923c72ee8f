import type { Transaction } from 'sequelize';
import type { Database } from '../../../core';
import { dayStart, nextDayStart } from '../calendar';
import { num, tbl } from '../db';
import type { FoldRegion, FoldState } from './state';

/** The shop rows one write stored (in its transaction), as far as the roll-ups care. */
export interface Written {
  /** The time of every order, refund and visitor event written. */
  times: number[];
  /** Orders with a visitor uid. */
  orders: Array<{ uid: string; time: number }>;
  /** Add-to-cart events. */
  carts: Array<{ sessionId: number; uid: string; time: number }>;
  /** Tracked visits (hits) of the visitor `uid`, written by tracking. */
  visits?: Array<{ uid: string; time: number }>;
}

/**
 * Marks stale the folded days a write changes, in the write's transaction:
 * the days of its rows, and the days whose distinct visitors and carts
 * (README "Roll-ups") it changes: an order changes whether the visitor's
 * visits and carts since the visitor's previous order (until the next one)
 * converted, a late add-to-cart changes which later day of its cart is the
 * cart's first, a late visit which later day of its visitor is the
 * visitor's first. Answers how many days it marked.
 */
export async function markWritten(db: Database, state: FoldState, siteId: number, tz: string, written: Written, t: Transaction): Promise<number> {
  const region = await state.forWrite(siteId, t);
  if (region.to <= region.from) return 0;
  const folded = (time: number) => time >= region.from && time < region.to;
  const days = new Set<number>();
  const add = (time: number) => {
    if (folded(time)) days.add(dayStart(time, tz));
  };
  for (const time of written.times) add(time);
  for (const o of written.orders) for (const time of await activityAround(db, siteId, region, o, tz, t)) add(time);
  for (const c of written.carts) {
    if (!folded(c.time)) continue;
    const next = await nextCart(db, siteId, c, nextDayStart(dayStart(c.time, tz), tz), t);
    if (next !== null) add(next);
  }
  for (const v of written.visits ?? []) {
    if (!folded(v.time)) continue;
    add(v.time);
    const [row] = await db.select<{ at: number | null }>(`SELECT MIN(time) AS at FROM ${tbl(db, 'sessions')} WHERE uid = ? AND +site_id = ? AND +time >= ?`, [
      v.uid,
      siteId,
      nextDayStart(dayStart(v.time, tz), tz),
    ], t);
    if (row?.at !== null && row?.at !== undefined) add(num(row.at));
  }
  return state.markStale(siteId, days, region, t);
}

/** Times of the visitor's sessions and add-to-carts between the orders around `o`, inside the folded days; none when another order shares its day. */
async function activityAround(db: Database, siteId: number, region: FoldRegion, o: { uid: string; time: number }, tz: string, t: Transaction): Promise<number[]> {
  const day = dayStart(o.time, tz);
  const end = nextDayStart(day, tz);
  const [near] = await db.select<Record<string, unknown>>(
    `SELECT MAX(CASE WHEN time < ? THEN time END) AS prev, MIN(CASE WHEN time >= ? THEN time END) AS next,
            SUM(CASE WHEN time >= ? AND time < ? THEN 1 ELSE 0 END) AS same
       FROM ${tbl(db, 'ecommerce_orders')} WHERE site_id = ? AND uid = ?`,
    [day, end, day, end, siteId, o.uid],
    t,
  );
  if (num(near?.same) > 1) return [];
  const from = Math.max(region.from, near?.prev === null || near?.prev === undefined ? region.from : num(near.prev));
  const to = Math.min(region.to, near?.next === null || near?.next === undefined ? region.to : num(near.next));
  if (from >= to) return [];
  const visits = await db.select<{ time: number }>(`SELECT time FROM ${tbl(db, 'sessions')} WHERE uid = ? AND +site_id = ? AND +time >= ? AND +time < ?`, [o.uid, siteId, from, to], t);
  const carts = await db.select<{ time: number }>(
    `SELECT time FROM ${tbl(db, 'ecommerce_events')} WHERE site_id = ? AND uid = ? AND type = 'add_to_cart' AND time >= ? AND time < ?`,
    [siteId, o.uid, from, to],
    t,
  );
  return [...visits, ...carts].map((r) => num(r.time));
}

/** The first add-to-cart of the cart (its session, or its uid without one) from `from` on, or null. */
async function nextCart(db: Database, siteId: number, c: Written['carts'][number], from: number, t: Transaction): Promise<number | null> {
  const events = tbl(db, 'ecommerce_events');
  const [row] =
    c.sessionId > 0
      ? await db.select<{ at: number | null }>(`SELECT MIN(time) AS at FROM ${events} WHERE session_id = ? AND type = 'add_to_cart' AND +site_id = ? AND time >= ?`, [c.sessionId, siteId, from], t)
      : await db.select<{ at: number | null }>(`SELECT MIN(time) AS at FROM ${events} WHERE site_id = ? AND uid = ? AND type = 'add_to_cart' AND session_id = 0 AND time >= ?`, [siteId, c.uid, from], t);
  return row?.at === null || row?.at === undefined ? null : num(row.at);
}
