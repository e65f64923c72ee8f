import type { Transaction } from 'sequelize';
import type { Clock, Database, SvcLogger } from '../../../core';
import { dayStart, monthStart, nextDayStart, nextMonthStart, previousDayStart } from '../calendar';
import { num, tbl } from '../db';
import { dropSite, foldDay, foldMonth } from './fold';
import { markWritten } from './marks';
import type { FoldRegion, FoldState } from './state';

/** Day folds one run of the hourly job does at most, over every site (the rest waits for the next run). */
export const DAYS_PER_RUN = 400;

export interface FolderDeps {
  db: Database;
  clock: Clock;
  state: FoldState;
  logger: SvcLogger;
  /** The sites whose days are folded. */
  siteIds(): Promise<number[]>;
  zoneOf(siteId: number): Promise<string>;
  /** The day shop figures start (README "Dates"); folding starts at the start of its month. */
  activationDay(): Promise<number>;
}

type Step = 'folded' | 'moved' | 'idle';

/** Raw tables whose rows a day's roll-ups sum, by their site and time columns. */
const RAW = ['ecommerce_orders', 'ecommerce_refunds', 'ecommerce_events', 'sessions'];

/**
 * Folds the finished days of each site into the roll-ups: from the first
 * month of shop data up to yesterday (days without any event are skipped),
 * then the stale days again. Each day is one transaction holding the site's
 * fold state, so nodes sharing the work never fold a day twice at once.
 */
export class Folder {
  constructor(private readonly deps: FolderDeps) {}

  /** Folds the pending days of every site, at most `budget` in all; how many it folded. */
  async foldPending(budget = DAYS_PER_RUN): Promise<number> {
    let done = 0;
    for (const siteId of await this.deps.siteIds()) {
      if (done >= budget) break;
      done += await this.foldSite(siteId, budget - done);
    }
    return done;
  }

  /** Folds the pending days of one site, at most `budget`. */
  async foldSite(siteId: number, budget = DAYS_PER_RUN): Promise<number> {
    const tz = await this.deps.zoneOf(siteId);
    const today = dayStart(this.deps.clock.unix(), tz);
    const first = monthStart(dayStart(await this.deps.activationDay(), tz), tz);
    let done = 0;
    for (;;) {
      if (done >= budget) break;
      const step = await this.deps.db.transaction((t) => this.step(siteId, tz, today, first, t), { writes: true });
      if (step === 'idle') break;
      if (step === 'folded') done++;
    }
    return done;
  }

  /** Marks the folded days a late tracked visit changes stale; how many it marked. */
  async markVisit(siteId: number, uid: string, time: number): Promise<number> {
    const tz = await this.deps.zoneOf(siteId);
    return this.deps.db.transaction((t) => markWritten(this.deps.db, this.deps.state, siteId, tz, { times: [], orders: [], carts: [], visits: [{ uid, time }] }, t), { writes: true });
  }

  /** Marks every folded day of a site from `from` on stale (data written around the ingestion path: demo visits, demo removal). */
  async markFrom(siteId: number, from: number): Promise<void> {
    const { db, state } = this.deps;
    const tz = await this.deps.zoneOf(siteId);
    await db.transaction(async (t) => {
      const region = await state.forWrite(siteId, t);
      const days: number[] = [];
      for (let day = Math.max(dayStart(from, tz), region.from); day < region.to; day = nextDayStart(day, tz)) days.push(day);
      await state.markStale(siteId, days, region, t);
    }, { writes: true });
  }

  /** One step of a site, in its own transaction: fold a day, move the region over days without events, or nothing left. */
  private async step(siteId: number, tz: string, today: number, first: number, t: Transaction): Promise<Step> {
    const { db, state } = this.deps;
    let region = await state.forFold(siteId, t);
    if (region.timezone !== tz) {
      // Never folded, or folded in another timezone (the site's changed): start from the first month.
      await dropSite(db, siteId, t);
      region = { from: first, to: first, timezone: tz };
      await state.setRegion(siteId, region, t);
    }
    if (region.to < today) {
      const next = await this.nextActive(siteId, region.to, today, t);
      if (next === null || dayStart(next, tz) > region.to) return this.move(siteId, region, { ...region, to: next === null ? today : dayStart(next, tz) }, t);
      await foldDay(db, siteId, region.to, tz, t);
      return this.move(siteId, region, { ...region, to: nextDayStart(region.to, tz) }, t, 'folded');
    }
    if (region.from > first) {
      const before = previousDayStart(region.from, tz);
      const latest = await this.latestActive(siteId, first, region.from, t);
      if (latest === null) return this.move(siteId, region, { ...region, from: first }, t);
      if (dayStart(latest, tz) < before) return this.move(siteId, region, { ...region, from: nextDayStart(dayStart(latest, tz), tz) }, t);
      await foldDay(db, siteId, before, tz, t);
      return this.move(siteId, region, { ...region, from: before }, t, 'folded');
    }
    const [day] = await state.staleDays(siteId, 1, t);
    if (day === undefined) return 'idle';
    await state.takeStale(siteId, day, t);
    if (day < region.from || day >= region.to) return 'moved';
    await foldDay(db, siteId, day, tz, t);
    await foldMonth(db, siteId, monthStart(day, tz), region, t);
    return 'folded';
  }

  /** Sets the region and folds the months (with their quarters and years) it now holds whole that it did not before. */
  private async move(siteId: number, before: FoldRegion, after: FoldRegion, t: Transaction, step: Step = 'moved'): Promise<Step> {
    const tz = after.timezone;
    for (let month = monthStart(after.from, tz); month < after.to; month = nextMonthStart(month, tz)) {
      const end = nextMonthStart(month, tz);
      const whole = (r: FoldRegion) => month >= r.from && end <= r.to;
      if (whole(after) && !whole(before)) await foldMonth(this.deps.db, siteId, month, after, t);
    }
    await this.deps.state.setRegion(siteId, after, t);
    return step;
  }

  /** The earliest time in [from, to) any raw table of the site has a row at, or null. */
  private async nextActive(siteId: number, from: number, to: number, t: Transaction): Promise<number | null> {
    const times = await this.edges(siteId, 'MIN', from, to, t);
    return times.length ? Math.min(...times) : null;
  }

  /** The latest time in [from, to) any raw table of the site has a row at, or null. */
  private async latestActive(siteId: number, from: number, to: number, t: Transaction): Promise<number | null> {
    const times = await this.edges(siteId, 'MAX', from, to, t);
    return times.length ? Math.max(...times) : null;
  }

  private async edges(siteId: number, agg: 'MIN' | 'MAX', from: number, to: number, t: Transaction): Promise<number[]> {
    const { db } = this.deps;
    const times: number[] = [];
    for (const table of RAW) {
      const [row] = await db.select<{ at: number | null }>(`SELECT ${agg}(time) AS at FROM ${tbl(db, table)} WHERE site_id = ? AND time >= ? AND time < ?`, [siteId, from, to], t);
      if (row?.at !== null && row?.at !== undefined) times.push(num(row.at));
    }
    return times;
  }
}
