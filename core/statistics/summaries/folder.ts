import type { Transaction } from 'sequelize';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { insertSumming } from '../../db/sql';
import type { SvcLogger } from '../../logger';
import { Accumulator, type AccumulatorGroup } from '../accumulator';
import { scanBlocks } from '../blocks/block-scan';
import type { BlockStore } from '../blocks/block-store';
import { VisitorIndex } from '../blocks/visitor-index';
import type { Catalog } from '../catalog';
import { dayStart, daysOfMonth, monthStart, nextDay } from '../dates';
import { STATUS_EXPR } from '../dimensions';
import { ADDITIVE, type Component, type Components, DISTINCT } from '../metrics';
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
/** The statuses of summary rows (`STATUS_EXPR`: 0, or 1 for a 404) as the block scans filter them. */
const STATUSES = ['200', '404'] as const;
/** The key of `summary_dims`. */
const DIM_KEY = ['site_id', 'dimension', 'status', 'day', 'value'];

/** A dimension's value as a summary row stores it. */
const storedValue = (value: unknown): string => String(value ?? '').slice(0, 255);

/** The additive components, as summary columns. */
const additive = (components: Components): Record<string, number> => Object.fromEntries(ADDITIVE.map((c) => [c, components[c]]));

/** The visitor sketches of a summary row and their counts (none when a sketch is missing). */
function sketchColumns(sketches: Pick<AccumulatorGroup, 'visitors' | 'firstTime' | 'converted'>): Row {
  const [visitors, firstTime, converted] = [sketches.visitors, sketches.firstTime, sketches.converted].map((s) => s ?? new VisitorSketch()) as [VisitorSketch, VisitorSketch, VisitorSketch];
  return {
    visitors: visitors.count(),
    first_time_visitors: firstTime.count(),
    converted_visitors: converted.count(),
    visitor_sketch: visitors.toBuffer(),
    first_time_sketch: firstTime.toBuffer(),
    converted_sketch: converted.toBuffer(),
  };
}

/** Groups of one dimension by the value a summary row stores (values alike in their first 255 characters are one row), their components summed. */
function byStoredValue(groups: readonly AccumulatorGroup[]): Map<string, Components> {
  const out = new Map<string, Components>();
  for (const group of groups) {
    const value = storedValue(group.keys[0]);
    const sum = out.get(value);
    if (!sum) out.set(value, { ...group.components });
    else for (const c of ADDITIVE) sum[c] += group.components[c];
  }
  return out;
}

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
    return sketchColumns(this);
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

  /**
   * Replaces the summaries of one day of a site (and, unless told otherwise,
   * the roll-up of its month). The day's pageviews are read once, as a day
   * block: the totals and every dimension the block holds are counted from it;
   * the goal and dimensions a plugin fills in later are asked of raw hits.
   */
  async foldDay(siteId: number, day: number, rollUp = true): Promise<void> {
    const foldedAt = this.clock.unix();
    const { block, data } = await this.blocks.readForFold(siteId, day, foldedAt);
    const visitors = new VisitorIndex();
    const scan = (status: '200' | '404', dimensions: string[], components: readonly Component[]) => {
      const acc = new Accumulator([]);
      scanBlocks([block], { range: { start: day, end: nextDay(day, this.timezone) }, status, filters: [], caseInsensitiveEquals: false, edges: null, dimensions, components }, acc, visitors);
      return acc.groups().filter((group) => group.components.pageviews > 0);
    };
    const dayRows: Row[] = [];
    const dimRows: Row[] = [];
    const sketchRows: Row[] = [];
    for (const status of [0, 1]) {
      for (const total of scan(STATUSES[status]!, [], [...ADDITIVE, ...DISTINCT])) dayRows.push({ site_id: siteId, day, status, ...additive(total.components), ...sketchColumns(total) });
    }
    for (const name of this.catalog.names()) {
      const def = this.catalog.dimension(name);
      if (!def.summarised) continue;
      if (block.columns.has(name)) {
        for (const status of [0, 1]) {
          for (const [value, components] of byStoredValue(scan(STATUSES[status]!, [name], ADDITIVE))) dimRows.push({ site_id: siteId, dimension: name, status, day, value, ...additive(components) });
        }
        continue;
      }
      const select = (visitorList: boolean) =>
        this.runner.select<Row>(
          'summary_fold',
          buildRawSelect(this.db, this.catalog, {
            siteId,
            ranges: [{ start: day, end: nextDay(day, this.timezone) }],
            status: 'all',
            filters: [],
            groups: [STATUS_GROUP, { alias: 'gd', expr: frag(def.expr), joins: def.joins }],
            components: visitorList ? [] : ADDITIVE,
            visitorList,
          }),
          this.runner.timeoutMs * 10,
        );
      for (const row of await select(false)) dimRows.push({ site_id: siteId, dimension: name, status: Number(row.gs), day, value: storedValue(row.gd), ...counts(row) });
      if (!def.sketched) continue;
      for (const [key, entry] of sketchesBy(await select(true), (row) => JSON.stringify([Number(row.gs), storedValue(row.gd)]))) {
        const [status, value] = JSON.parse(key) as [number, string];
        sketchRows.push({ site_id: siteId, dimension: name, status, day, value, ...entry.columns() });
      }
    }
    await this.db.transaction(async (t) => {
      for (const table of ['summary_days', 'summary_dims', 'summary_dim_sketches', 'summary_state', 'summary_blocks']) {
        await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table(table))} WHERE site_id = ? AND day = ?`, [siteId, day], t);
      }
      await this.insertRows('summary_days', dayRows, t);
      await this.insertRows('summary_dims', dimRows, t, DIM_KEY, ADDITIVE);
      await this.insertRows('summary_dim_sketches', sketchRows, t);
      await this.insertRows('summary_state', [{ site_id: siteId, day, folded_at: foldedAt, dirty: 0 }], t);
      if (data) await this.insertRows('summary_blocks', [{ site_id: siteId, day, folded_at: foldedAt, pageviews: block.fold.pageviews, data }], t);
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

  /** Inserts rows; with `conflict`, a row whose key the table's collation finds already inserted adds its `sum` columns to it (MariaDB takes `/Blog` and `/blog` as one value). */
  private async insertRows(table: string, rows: Row[], t: Transaction, conflict?: readonly string[], sum?: readonly string[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const name = this.db.table(table);
    const q = this.db.quote;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      const chunk = rows.slice(at, at + INSERT_CHUNK).map((r) => columns.map((c) => r[c]));
      if (conflict && sum) await insertSumming(this.db, name, columns, chunk, conflict, sum, t);
      else await this.db.execute(`INSERT INTO ${q(name)} (${columns.map(q).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`, chunk.flat(), t);
    }
  }
}

function counts(row: Row): Record<string, number> {
  return Object.fromEntries(ADDITIVE.map((c) => [c, Number(row[`c_${c}`] ?? 0)]));
}
