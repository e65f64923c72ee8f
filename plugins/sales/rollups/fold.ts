import type { Transaction } from 'sequelize';
import type { Database } from '../../../core';
import { nextDayStart, nextMonthStart } from '../calendar';
import { tbl } from '../db';
import { CUBES, foldCubeDay, foldCubeMonth } from './cubes';
import { foldReachDay, foldReachMonth } from './reach';
import { foldUnvisitedDay } from './unvisited';

/** Every roll-up table of a site (the `site_id` sweep of a removed site reaches them too). */
export const ROLLUP_TABLES = [
  ...CUBES.flatMap((c) => [`${c.stem}_days`, `${c.stem}_months`]),
  'ecommerce_reach_days',
  'ecommerce_reach_months',
  'ecommerce_unvisited_orders',
  'ecommerce_stale_days',
];

/** Replaces a site's day roll-ups of the day starting at `day` with what its raw events say. */
export async function foldDay(db: Database, siteId: number, day: number, tz: string, t: Transaction): Promise<void> {
  const end = nextDayStart(day, tz);
  for (const cube of CUBES) await foldCubeDay(db, cube, siteId, day, end, t);
  await foldReachDay(db, siteId, day, end, tz, t);
  await foldUnvisitedDay(db, siteId, day, end, t);
}

/** Replaces a site's month roll-ups of the month starting at `month` with the sums of its day roll-ups. */
export async function foldMonth(db: Database, siteId: number, month: number, tz: string, t: Transaction): Promise<void> {
  const end = nextMonthStart(month, tz);
  for (const cube of CUBES) await foldCubeMonth(db, cube, siteId, month, end, t);
  await foldReachMonth(db, siteId, month, end, t);
}

/** Deletes every roll-up of a site (before folding it again from the start). */
export async function dropSite(db: Database, siteId: number, t: Transaction): Promise<void> {
  for (const table of ROLLUP_TABLES) await db.execute(`DELETE FROM ${tbl(db, table)} WHERE site_id = ?`, [siteId], t);
}
