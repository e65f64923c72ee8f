import type { Transaction } from 'sequelize';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { SvcLogger } from '../../logger';
import type { BlockStore } from '../blocks/block-store';
import type { Catalog } from '../catalog';
import { dayStart, daysOfMonth, monthStart, nextDay } from '../dates';
import { STATUS_EXPR } from '../dimensions';
import { ADDITIVE } from '../metrics';
import { VisitorSketch } from '../sketch';
import { frag } from '../sql/fragment';
import { buildRawSelect, type Group } from '../sql/raw-query';
import type { QueryRunner } from '../sql/runner';
import type { SummaryState } from './state';

/** A finished day is folded again on every run until this long after its end (time-on-page updates, bounces). */
export const REFOLD_GRACE_SECONDS = 2 * 3600;
/** Days (of all sites together) one scheduled run folds at most; `svc statistics rebuild` has no limit. */
const DAYS_PER_RUN = 400;
const INSERT_CHUNK = 200;

type Row = Record<string, unknown>;

const STATUS_GROUP: Group = { alias: 'gs', expr: frag(STATUS_EXPR), joins: [] };

/** Distinct visitors of one summary row: all of them, first-time ones, those who completed a goal. */
class VisitorSketches {
  readonly visitors = new VisitorSketch();
  readonly firstTime = new VisitorSketch();
  readonly converted = new VisitorSketch();

  /** A row of a visitor list (`uid`, `ft`, `cv`). */
  add(row: Row): void {
    const uid = String(row.uid);
    this.visitors.add(uid);
    if (Number(row.ft) === 1) this.firstTime.add(uid);
    if (Number(row.cv) === 1) this.converted.add(uid);
  }

  /** A stored row's sketches. */
  merge(row: Row): void {
    this.visitors.merge(VisitorSketch.from(row.visitor_sketch as Buffer | null));
    this.firstTime.merge(VisitorSketch.from(row.first_time_sketch as Buffer | null));
    this.converted.merge(VisitorSketch.from(row.converted_sketch as Buffer | null));
  }

  columns(): Row {
    return {
      visitors: this.visitors.count(),
      first_time_visitors: this.firstTime.count(),
      converted_visitors: this.converted.count(),
      visitor_sketch: this.visitors.toBuffer(),
      first_time_sketch: this.firstTime.toBuffer(),
      converted_sketch: this.converted.toBuffer(),
    };
  }
}

/** Sketches per key of a visitor list. */
function sketchesBy(rows: readonly Row[], key: (row: Row) => string): Map<string, VisitorSketches> {
  const out = new Map<string, VisitorSketches>();
  for (const row of rows) {
    const k = key(row);
    let entry = out.get(k);
    if (!entry) out.set(k, (entry = new VisitorSketches()));
    entry.add(row);
  }
  return out;
}

/**
 * Folds finished site-timezone days of raw hits into `summary_days`,
 * `summary_dims` and (for dimensions that keep visitor sketches, the goal)
 * `summary_dim_sketches`, replacing a day's rows in one transaction.
 */
export class SummaryFolder {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly runner: QueryRunner,
    private readonly state: SummaryState,
    private readonly blocks: BlockStore,
    private readonly timezone: string,
    private readonly clock: Clock,
    private readonly logger: SvcLogger,
  ) {}

  /** Folds, for every site, each day that is unfolded, dirty or still inside the re-fold grace; returns the days folded. */
  async foldPending(limit = DAYS_PER_RUN): Promise<number[]> {
    const folded: number[] = [];
    for (const siteId of await this.sitesWithHits()) {
      if (folded.length >= limit) break;
      const days = await this.finishedDays(siteId);
      if (days.length === 0) continue;
      const state = await this.state.list(siteId, days[0]!, days[days.length - 1]!);
      const due = days.filter((day) => {
        const s = state.get(day);
        return !s || s.dirty || s.foldedAt < nextDay(day, this.timezone) + REFOLD_GRACE_SECONDS;
      });
      const batch = due.slice(-(limit - folded.length));
      for (const day of batch) await this.foldDay(siteId, day);
      if (batch.length) this.logger.info({ siteId, days: batch.length }, 'statistics summaries folded');
      folded.push(...batch);
    }
    return folded;
  }

  /** Folds every finished day of every site that has raw hits, whatever its state. */
  async rebuild(progress?: (done: number, total: number) => void): Promise<number> {
    const work: Array<{ siteId: number; days: number[] }> = [];
    for (const siteId of await this.sitesWithHits()) work.push({ siteId, days: await this.finishedDays(siteId) });
    const total = work.reduce((n, w) => n + w.days.length, 0);
    let done = 0;
    for (const { siteId, days } of work) await this.foldDays(siteId, days, () => progress?.(++done, total));
    return total;
  }

  /** Folds the site's finished days from `from` to `to` (unix times) again, with or without raw hits left (after hits were removed). */
  async refold(siteId: number, from: number, to: number, progress?: (done: number, total: number) => void): Promise<number> {
    const yesterday = dayStart(this.clock.unix(), this.timezone) - 1;
    const days: number[] = [];
    for (let day = dayStart(from, this.timezone); day <= Math.min(to, yesterday); day = nextDay(day, this.timezone)) days.push(day);
    let done = 0;
    return this.foldDays(siteId, days, () => progress?.(++done, days.length));
  }

  private async foldDays(siteId: number, days: readonly number[], folded: () => void): Promise<number> {
    const months = new Set<number>();
    for (const day of days) {
      await this.foldDay(siteId, day, false);
      months.add(monthStart(day, this.timezone));
      folded();
    }
    for (const month of months) await this.db.transaction((t) => this.rollUpMonth(siteId, month, t));
    return days.length;
  }

  /** Ids of the sites that have raw hits, one index seek each. */
  async sitesWithHits(): Promise<number[]> {
    const sites: number[] = [];
    for (;;) {
      const [row] = await this.db.select<{ id: number | null }>(`SELECT MIN(site_id) AS id FROM ${this.db.quote(this.db.table('statistics'))} WHERE site_id > ?`, [
        sites[sites.length - 1] ?? 0,
      ]);
      if (row?.id === null || row?.id === undefined) return sites;
      sites.push(Number(row.id));
    }
  }

  /** Finished days of the site from its first raw hit to yesterday. */
  async finishedDays(siteId: number): Promise<number[]> {
    const [row] = await this.db.select<{ first: number | null }>(`SELECT MIN(time) AS first FROM ${this.db.quote(this.db.table('statistics'))} WHERE site_id = ?`, [siteId]);
    if (row?.first === null || row?.first === undefined) return [];
    const today = dayStart(this.clock.unix(), this.timezone);
    const days: number[] = [];
    for (let day = dayStart(Number(row.first), this.timezone); day < today; day = nextDay(day, this.timezone)) days.push(day);
    return days;
  }

  /** Replaces the summaries of one day of a site (and, unless told otherwise, the roll-up of its month). */
  async foldDay(siteId: number, day: number, rollUp = true): Promise<void> {
    const ranges = [{ start: day, end: nextDay(day, this.timezone) }];
    const select = (groups: Group[], visitorList = false) =>
      this.runner.select<Row>(
        'summary_fold',
        buildRawSelect(this.db, this.catalog, { siteId, ranges, status: 'all', filters: [], groups, components: visitorList ? [] : ADDITIVE, visitorList }),
        this.runner.timeoutMs * 10,
      );
    const totals = await select([STATUS_GROUP]);
    const sketches = sketchesBy(await select([STATUS_GROUP], true), (row) => String(Number(row.gs)));
    const dimRows: Row[] = [];
    const sketchRows: Row[] = [];
    const valueOf = (row: Row) => String(row.gd ?? '').slice(0, 255);
    for (const name of this.catalog.names()) {
      const def = this.catalog.dimension(name);
      if (!def.summarised) continue;
      const groups = [STATUS_GROUP, { alias: 'gd', expr: frag(def.expr), joins: def.joins }];
      for (const row of await select(groups)) dimRows.push({ site_id: siteId, dimension: name, status: Number(row.gs), day, value: valueOf(row), ...counts(row) });
      if (!def.sketched) continue;
      for (const [key, entry] of sketchesBy(await select(groups, true), (row) => JSON.stringify([Number(row.gs), valueOf(row)]))) {
        const [status, value] = JSON.parse(key) as [number, string];
        sketchRows.push({ site_id: siteId, dimension: name, status, day, value, ...entry.columns() });
      }
    }
    const dayRows = totals.map((row) => ({ site_id: siteId, day, status: Number(row.gs), ...counts(row), ...(sketches.get(String(Number(row.gs))) ?? new VisitorSketches()).columns() }));
    const fold = { foldedAt: this.clock.unix(), pageviews: totals.reduce((n, row) => n + Number(row.c_pageviews ?? 0), 0) };
    const block = await this.blocks.encodeDay(siteId, day, fold);
    await this.db.transaction(async (t) => {
      for (const table of ['summary_days', 'summary_dims', 'summary_dim_sketches', 'summary_state', 'summary_blocks']) {
        await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table(table))} WHERE site_id = ? AND day = ?`, [siteId, day], t);
      }
      await this.insertRows('summary_days', dayRows, t);
      await this.insertRows('summary_dims', dimRows, t);
      await this.insertRows('summary_dim_sketches', sketchRows, t);
      await this.insertRows('summary_state', [{ site_id: siteId, day, folded_at: fold.foldedAt, dirty: 0 }], t);
      if (block) await this.insertRows('summary_blocks', [{ site_id: siteId, day, folded_at: fold.foldedAt, pageviews: fold.pageviews, data: block }], t);
      if (rollUp) await this.rollUpMonth(siteId, monthStart(day, this.timezone), t);
    });
  }

  /** Sums the site's daily rows of the month into `summary_days_month` (sketches merged) and `summary_dims_month` (dimension sketches stay daily). */
  private async rollUpMonth(siteId: number, month: number, t: Transaction): Promise<void> {
    const q = (name: string) => this.db.quote(this.db.table(name));
    const days = daysOfMonth(month, this.timezone);
    const end = nextDay(days[days.length - 1]!, this.timezone);
    const daily = await this.db.select<Row>(`SELECT * FROM ${q('summary_days')} WHERE site_id = ? AND day >= ? AND day < ?`, [siteId, month, end], t);
    const totals = new Map<number, { counts: Record<string, number>; sketches: VisitorSketches }>();
    for (const row of daily) {
      const status = Number(row.status);
      let total = totals.get(status);
      if (!total) totals.set(status, (total = { counts: Object.fromEntries(ADDITIVE.map((c) => [c, 0])), sketches: new VisitorSketches() }));
      for (const c of ADDITIVE) total.counts[c]! += Number(row[c] ?? 0);
      total.sketches.merge(row);
    }
    await this.db.execute(`DELETE FROM ${q('summary_days_month')} WHERE site_id = ? AND day = ?`, [siteId, month], t);
    await this.insertRows(
      'summary_days_month',
      [...totals].map(([status, total]) => ({ site_id: siteId, day: month, status, ...total.counts, ...total.sketches.columns() })),
      t,
    );
    const sums = ADDITIVE.map((c) => `SUM(${c})`).join(', ');
    await this.db.execute(`DELETE FROM ${q('summary_dims_month')} WHERE site_id = ? AND day = ?`, [siteId, month], t);
    await this.db.execute(
      `INSERT INTO ${q('summary_dims_month')} (site_id, dimension, status, day, value, ${ADDITIVE.join(', ')}) ` +
        `SELECT site_id, dimension, status, ?, value, ${sums} FROM ${q('summary_dims')} WHERE site_id = ? AND day >= ? AND day < ? GROUP BY site_id, dimension, status, value`,
      [month, siteId, month, end],
      t,
    );
  }

  private async insertRows(table: string, rows: Row[], t: Transaction): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const q = this.db.quote;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      const chunk = rows.slice(at, at + INSERT_CHUNK);
      await this.db.execute(
        `INSERT INTO ${q(this.db.table(table))} (${columns.map(q).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`,
        chunk.flatMap((r) => columns.map((c) => r[c])),
        t,
      );
    }
  }
}

function counts(row: Row): Record<string, number> {
  return Object.fromEntries(ADDITIVE.map((c) => [c, Number(row[`c_${c}`] ?? 0)]));
}
