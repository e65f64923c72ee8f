import type { Transaction } from 'sequelize';
import { type Database, insertIgnoring, LOCK_ROWS, type TimeRange } from '../../../core';
import { num, tbl } from '../db';
import type { FoldedDays } from './plan';

/** The days of a site that are folded, [from, to), in the site timezone `timezone`. */
export interface FoldRegion {
  from: number;
  to: number;
  timezone: string;
}

/** Per dialect: what ends a SELECT that keeps the rows it read from changing until the transaction ends, letting other readers in. */
const SHARE_ROWS = { mysql: ' LOCK IN SHARE MODE', sqlite: '' } as const;

/**
 * Which days of each site are folded (`ecommerce_fold_state`) and which of
 * them changed since (`ecommerce_stale_days`).
 *
 * A write that lands on a folded day marks it stale in its own transaction;
 * it reads the folded region under a shared lock, and a fold takes that row
 * for update before it reads the events, so a day is never folded without
 * an event whose writer saw it unfolded. A fold of a stale day deletes the
 * mark first, so a write arriving meanwhile marks it again.
 */
export class FoldState {
  constructor(private readonly db: Database) {}

  private get table(): string {
    return tbl(this.db, 'ecommerce_fold_state');
  }

  private get stale(): string {
    return tbl(this.db, 'ecommerce_stale_days');
  }

  private async ensure(siteId: number, t: Transaction): Promise<void> {
    await insertIgnoring(this.db, this.db.table('ecommerce_fold_state'), ['site_id', 'timezone', 'folded_from', 'folded_to'], [[siteId, '', 0, 0]], t);
  }

  private async read(siteId: number, lock: string, t?: Transaction): Promise<FoldRegion> {
    const [row] = await this.db.select<Record<string, unknown>>(`SELECT timezone, folded_from, folded_to FROM ${this.table} WHERE site_id = ?${lock}`, [siteId], t);
    return { from: num(row?.folded_from), to: num(row?.folded_to), timezone: String(row?.timezone ?? '') };
  }

  /** The folded days of a site and its stale days inside `range`, for planning a read; null when nothing is folded. */
  async foldedDays(siteId: number, range: TimeRange): Promise<FoldedDays | null> {
    const region = await this.read(siteId, '');
    if (region.to <= region.from) return null;
    const rows = await this.db.select<{ day: number }>(`SELECT day FROM ${this.stale} WHERE site_id = ? AND day >= ? AND day < ? ORDER BY day`, [siteId, range.start, range.end]);
    return { ...region, stale: rows.map((r) => num(r.day)) };
  }

  /** The folded region as a write sees it, kept from moving until its transaction ends. */
  async forWrite(siteId: number, t: Transaction): Promise<FoldRegion> {
    await this.ensure(siteId, t);
    return this.read(siteId, SHARE_ROWS[this.db.dialect], t);
  }

  /** The folded region as a fold sees it, locked until its transaction ends. */
  async forFold(siteId: number, t: Transaction): Promise<FoldRegion> {
    await this.ensure(siteId, t);
    return this.read(siteId, LOCK_ROWS[this.db.dialect], t);
  }

  async setRegion(siteId: number, region: FoldRegion, t: Transaction): Promise<void> {
    await this.db.execute(`UPDATE ${this.table} SET timezone = ?, folded_from = ?, folded_to = ? WHERE site_id = ?`, [region.timezone, region.from, region.to, siteId], t);
  }

  /** Marks folded days of a site stale (days outside the region are read raw anyway). */
  async markStale(siteId: number, days: Iterable<number>, region: FoldRegion, t: Transaction): Promise<number> {
    const inside = [...new Set(days)].filter((d) => d >= region.from && d < region.to);
    if (inside.length === 0) return 0;
    await insertIgnoring(this.db, this.db.table('ecommerce_stale_days'), ['site_id', 'day'], inside.map((d) => [siteId, d]), t);
    return inside.length;
  }

  /** Takes the stale mark off a day before it is folded again; false when another fold took it. */
  async takeStale(siteId: number, day: number, t: Transaction): Promise<boolean> {
    return (await this.db.execute(`DELETE FROM ${this.stale} WHERE site_id = ? AND day = ?`, [siteId, day], t)) > 0;
  }

  /** Stale days of a site, oldest first. */
  async staleDays(siteId: number, limit: number, t?: Transaction): Promise<number[]> {
    const rows = await this.db.select<{ day: number }>(`SELECT day FROM ${this.stale} WHERE site_id = ? ORDER BY day LIMIT ${Math.max(1, Math.floor(limit))}`, [siteId], t);
    return rows.map((r) => num(r.day));
  }
}
