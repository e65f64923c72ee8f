import type { Transaction } from 'sequelize';
import type { Database } from '../../../core';
import { BLOCKS, blockStart, nextBlockStart, nextDayStart } from '../calendar';
import { tbl } from '../db';
import { CUBES, foldCubeBlock, foldCubeDay } from './cubes';
import { foldReachDay, REACH_CUBE } from './reach';
import type { FoldRegion } from './state';
import { foldUnvisitedDay } from './unvisited';

/** The roll-ups kept by day, month, quarter and year. */
const BLOCKED = [...CUBES, REACH_CUBE];

/** Every roll-up table of a site (the `site_id` sweep of a removed site reaches them too). */
export const ROLLUP_TABLES = [...BLOCKED.flatMap((c) => [`${c.stem}_days`, `${c.stem}_months`]), 'ecommerce_unvisited_orders', 'ecommerce_stale_days'];

/** Replaces a site's day roll-ups of the day starting at `day` with what its raw events say. */
export async function foldDay(db: Database, siteId: number, day: number, tz: string, t: Transaction): Promise<void> {
  const end = nextDayStart(day, tz);
  for (const cube of CUBES) await foldCubeDay(db, cube, siteId, day, end, t);
  await foldReachDay(db, siteId, day, end, tz, t);
  await foldUnvisitedDay(db, siteId, day, end, t);
}

/**
 * Replaces a site's roll-ups of the month starting at `month` with the sums
 * of its days, then those of its quarter and year that `region` holds whole
 * with the sums of their months.
 */
export async function foldMonth(db: Database, siteId: number, month: number, region: FoldRegion, t: Transaction): Promise<void> {
  for (const months of [...BLOCKS].reverse()) {
    const start = blockStart(month, months, region.timezone);
    const end = nextBlockStart(start, months, region.timezone);
    if (start < region.from || end > region.to) continue;
    for (const cube of BLOCKED) await foldCubeBlock(db, cube, siteId, start, months, end, t);
  }
}

/** Deletes every roll-up of a site (before folding it again from the start). */
export async function dropSite(db: Database, siteId: number, t: Transaction): Promise<void> {
  for (const table of ROLLUP_TABLES) await db.execute(`DELETE FROM ${tbl(db, table)} WHERE site_id = ?`, [siteId], t);
}
