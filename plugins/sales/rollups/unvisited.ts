import type { Transaction } from 'sequelize';
import { type Database, frag, joinFrags } from '../../../core';
import { num, tbl } from '../db';
import { DIMENSION_SQL, visitorJoins } from '../data/scope';
import { type Condition, conditionsOn, inRanges } from './cubes';
import type { Plan } from './plan';

/**
 * Orders without a visit in a window: an order whose visitor had a session
 * on the order's day always has a visit in a window holding that day, so a
 * fold keeps only the others (`ecommerce_unvisited_orders`, few), and a
 * window asks the sessions about those alone. Orders without a uid are
 * counted by the order roll-up.
 */

/** `NOT EXISTS` a session of the uid in `alias.uid` in [start, end); `+` keeps SQLite on the uid index. */
const noVisit = (db: Database, uid: string, siteId: number, start: number, end: number) =>
  frag(`NOT EXISTS (SELECT 1 FROM ${tbl(db, 'sessions')} v WHERE v.uid = ${uid} AND +v.site_id = ? AND +v.time >= ? AND +v.time < ?)`, [siteId, start, end]);

/** Orders of [start, end) with a uid, with the visitor's country and device. */
function ordersWithUid(db: Database, siteId: number, ranges: Parameters<typeof inRanges>[1], conditions: readonly Condition[]) {
  const where = joinFrags(
    [
      frag("o.site_id = ? AND o.uid <> ''", [siteId]),
      inRanges('o.time', ranges),
      ...conditionsOn((col) => (col === 'country_code' ? DIMENSION_SQL.country : DIMENSION_SQL.device), conditions),
    ],
    ' AND ',
  );
  return frag(
    `SELECT o.ID AS order_ref, o.uid, ${DIMENSION_SQL.country} AS country_code, ${DIMENSION_SQL.device} AS device FROM ${tbl(db, 'ecommerce_orders')} o ${visitorJoins(db, 'o', ['country', 'device'])} WHERE ${where.sql}`,
    where.params,
  );
}

/** Replaces the unvisited orders of one site and day: those whose uid had no session that day. */
export async function foldUnvisitedDay(db: Database, siteId: number, day: number, end: number, t: Transaction): Promise<void> {
  const table = tbl(db, 'ecommerce_unvisited_orders');
  await db.execute(`DELETE FROM ${table} WHERE site_id = ? AND day = ?`, [siteId, day], t);
  const orders = ordersWithUid(db, siteId, [{ start: day, end }], []);
  const none = noVisit(db, 'u.uid', siteId, day, end);
  await db.execute(
    `INSERT INTO ${table} (site_id, day, order_ref, uid, country_code, device) SELECT ?, ?, u.order_ref, u.uid, u.country_code, u.device FROM (${orders.sql}) u WHERE ${none.sql}`,
    [siteId, day, ...orders.params, ...none.params],
    t,
  );
}

/** Orders of the window with a uid that has no session in the window (those without a uid are the order roll-up's). */
export async function unvisitedOrders(db: Database, siteId: number, plan: Plan, conditions: readonly Condition[]): Promise<number> {
  const parts = [];
  if (plan.folded.length) {
    const where = joinFrags(
      [frag('site_id = ?', [siteId]), inRanges('day', plan.folded), ...conditionsOn((col) => col, conditions)],
      ' AND ',
    );
    parts.push(frag(`SELECT uid FROM ${tbl(db, 'ecommerce_unvisited_orders')} WHERE ${where.sql}`, where.params));
  }
  if (plan.raw.length) {
    const raw = ordersWithUid(db, siteId, plan.raw, conditions);
    parts.push(frag(`SELECT r.uid FROM (${raw.sql}) r`, raw.params));
  }
  if (parts.length === 0) return 0;
  const union = joinFrags(parts, ' UNION ALL ');
  const none = noVisit(db, 'c.uid', siteId, plan.window.start, plan.window.end);
  const [row] = await db.select<Record<string, unknown>>(`SELECT COUNT(*) AS n FROM (${union.sql}) c WHERE ${none.sql}`, [...union.params, ...none.params]);
  return num(row?.n);
}
