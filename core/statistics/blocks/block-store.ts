import type { Database } from '../../db/database';
import type { SvcLogger } from '../../logger';
import type { Catalog } from '../catalog';
import { nextDay } from '../dates';
import type { DimensionDef } from '../dimensions';
import { frag, joinFrags } from '../sql/fragment';
import type { QueryRunner } from '../sql/runner';
import type { SummaryState } from '../summaries/state';
import { decodeBlock, encodeBlock } from './block-codec';
import { type BlockRow, type DayBlock, type DayFold, buildDayBlock } from './day-block';
import { VisitorIndex } from './visitor-index';

/** A day to read, with the fold it is read after. */
interface Missing {
  day: number;
  fold: DayFold;
}

/** A block larger than this (encoded) is not stored: MariaDB's default packet limit is 16 MB. */
const MAX_STORED_BYTES = 8 * 1024 * 1024;

/** Memory a visitor of a `VisitorIndex` takes, about. */
const VISITOR_BYTES = 80;

/** Pageviews one loading query reads at most (several days at a time, cut by the summaries' counts). */
const ROWS_PER_LOAD = 60_000;

/** The goal ids the pageview `s` completed, comma-separated (NULL for none), as `goals`: GROUP_CONCAT reads alike on SQLite and MariaDB. */
export const goalsOfPageview = (db: Database): string =>
  `(SELECT GROUP_CONCAT(gx.goal_id) FROM ${db.quote(db.table('goal_statistics'))} gx WHERE gx.statistic_id = s.ID) AS goals`;

/**
 * Dimensions a block holds: every settled one with a value per pageview (the
 * goal, kept in rows of its own, and dimensions a plugin fills in later stay
 * with the summaries and raw hits).
 */
export const inBlocks = (def: DimensionDef): boolean => !def.rows && def.settled === true;

/**
 * Day blocks of folded days, read from raw hits once and kept in memory up to
 * `limitBytes` (least recently used go first). A block is used while the day's
 * fold it was read after is current: a late hit marks the day dirty and a new
 * fold replaces it, so every node of a cluster sees the same answers.
 */
export class BlockStore {
  private readonly cache = new Map<string, DayBlock>();
  private bytes = 0;
  private readonly loading = new Map<string, Promise<DayBlock>>();
  private readonly visitors = new Map<number, VisitorIndex>();

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly runner: QueryRunner,
    private readonly state: SummaryState,
    private readonly timezone: string,
    private readonly logger: SvcLogger,
    readonly limitBytes: number,
  ) {}

  /** Memory the blocks in the cache hold (estimated). */
  get usedBytes(): number {
    return this.bytes;
  }

  get enabled(): boolean {
    return this.limitBytes > 0;
  }

  /**
   * The blocks of the site's days among `days` (sorted) whose fold is current;
   * the rest are left to raw hits. A cached block stands while the day's fold
   * time and folded pageviews are those it was read after (a fold in the same
   * second as the one before still changes the count when a late hit came in).
   */
  async blocks(siteId: number, days: readonly number[]): Promise<DayBlock[]> {
    if (days.length === 0) return [];
    const first = days[0]!;
    const last = days[days.length - 1]!;
    const [folds, sizes] = await Promise.all([this.state.list(siteId, first, last), this.pageviews(siteId, first, last)]);
    const dimensions = this.dimensions();
    const found: Array<Promise<DayBlock>> = [];
    const missing: Missing[] = [];
    for (const day of days) {
      const state = folds.get(day);
      if (!state || state.dirty) continue;
      const fold = { foldedAt: state.foldedAt, pageviews: sizes.get(day) ?? 0 };
      const key = `${siteId}:${day}`;
      const cached = this.cache.get(key);
      if (cached && cached.fold.foldedAt === fold.foldedAt && cached.fold.pageviews === fold.pageviews && dimensions.every((d) => cached.columns.has(d))) {
        this.cache.delete(key);
        this.cache.set(key, cached);
        found.push(Promise.resolve(cached));
        continue;
      }
      const pending = this.loading.get(key);
      if (pending) found.push(pending);
      else missing.push({ day, fold });
    }
    if (missing.length) found.push(...this.load(siteId, missing, dimensions));
    return Promise.all(found);
  }

  /**
   * The numbering of the site's visitors its block scans share. It holds every
   * visitor of the blocks scanned since it began (about 80 bytes each), and
   * begins anew once it holds more visitors than the cache's size allows.
   */
  visitorIndex(siteId: number): VisitorIndex {
    let index = this.visitors.get(siteId);
    if (!index || index.size > this.limitBytes / VISITOR_BYTES) this.visitors.set(siteId, (index = new VisitorIndex()));
    return index;
  }

  /** The site's days whose blocks are in memory, in order. */
  cached(siteId: number): number[] {
    return [...this.cache.values()].filter((b) => b.siteId === siteId).map((b) => b.day).sort((a, b) => a - b);
  }

  private dimensions(): string[] {
    return this.catalog.names().filter((name) => inBlocks(this.catalog.dimension(name)));
  }

  /** Reads the missing days in groups of consecutive days of about ROWS_PER_LOAD pageviews. */
  private load(siteId: number, days: readonly Missing[], dimensions: string[]): Array<Promise<DayBlock>> {
    const groups: Missing[][] = [];
    let rows = 0;
    for (const entry of days) {
      const last = groups[groups.length - 1];
      const size = entry.fold.pageviews;
      const follows = last !== undefined && nextDay(last[last.length - 1]!.day, this.timezone) === entry.day;
      if (last && follows && rows + size <= ROWS_PER_LOAD) {
        last.push(entry);
        rows += size;
      } else {
        groups.push([entry]);
        rows = size;
      }
    }
    // Every day is marked as loading before the first read starts, so a question arriving meanwhile waits for it instead of reading again.
    const out: Array<Promise<DayBlock>> = [];
    let previous: Promise<unknown> = Promise.resolve();
    for (const group of groups) {
      // One group at a time: the database answers one scan faster than several at once.
      const read = previous.then(() => this.read(siteId, group, dimensions));
      previous = read.catch(() => undefined);
      group.forEach((entry, i) => {
        const key = `${siteId}:${entry.day}`;
        const block = read.then((blocks) => blocks[i]!);
        this.loading.set(key, block);
        out.push(
          block.finally(() => {
            if (this.loading.get(key) === block) this.loading.delete(key);
          }),
        );
      });
    }
    return out;
  }

  /** Pageviews per folded day (every status), from the daily summaries. */
  private async pageviews(siteId: number, first: number, last: number): Promise<Map<number, number>> {
    const rows = await this.db.select<{ day: number; n: number }>(
      `SELECT day, SUM(pageviews) AS n FROM ${this.db.quote(this.db.table('summary_days'))} WHERE site_id = ? AND day >= ? AND day <= ? GROUP BY day`,
      [siteId, first, last],
    );
    return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  }

  /** The group's blocks: those stored after the same fold, the rest read from raw hits and stored for the next start. */
  private async read(siteId: number, group: readonly Missing[], dimensions: string[]): Promise<DayBlock[]> {
    const stored = await this.stored(siteId, group, dimensions);
    const rest = group.filter((entry) => !stored.has(entry.day));
    const fresh = rest.length ? await this.readRaw(siteId, rest, dimensions) : [];
    for (const block of fresh) await this.store(block);
    const blocks = new Map([...stored, ...fresh.map((b) => [b.day, b] as const)]);
    return group.map((entry) => this.keep(blocks.get(entry.day)!));
  }

  /** Blocks of `summary_blocks` written after the fold each day's summaries are of, with every dimension. */
  private async stored(siteId: number, group: readonly Missing[], dimensions: string[]): Promise<Map<number, DayBlock>> {
    const rows = await this.db.select<{ day: number; folded_at: number; pageviews: number; data: Buffer }>(
      `SELECT day, folded_at, pageviews, data FROM ${this.db.quote(this.db.table('summary_blocks'))} WHERE site_id = ? AND day >= ? AND day <= ?`,
      [siteId, group[0]!.day, group[group.length - 1]!.day],
    );
    const wanted = new Map(group.map((entry) => [entry.day, entry.fold]));
    const out = new Map<number, DayBlock>();
    for (const row of rows) {
      const fold = wanted.get(Number(row.day));
      if (!fold || Number(row.folded_at) !== fold.foldedAt || Number(row.pageviews) !== fold.pageviews) continue;
      try {
        const block = decodeBlock(siteId, Number(row.day), Buffer.from(row.data));
        if (block && dimensions.every((d) => block.columns.has(d))) out.set(block.day, block);
      } catch (err) {
        this.logger.warn({ siteId, day: Number(row.day), err: (err as Error).message }, 'stored day block unreadable: reading raw hits');
      }
    }
    return out;
  }

  /** Keeps a block in `summary_blocks` for the next start (too large a day is read from raw hits each time). */
  private async store(block: DayBlock): Promise<void> {
    const data = encodeBlock(block);
    if (data.length > MAX_STORED_BYTES) return;
    try {
      await this.db.execute(
        `REPLACE INTO ${this.db.quote(this.db.table('summary_blocks'))} (site_id, day, folded_at, pageviews, data) VALUES (?, ?, ?, ?, ?)`,
        [block.siteId, block.day, block.fold.foldedAt, block.fold.pageviews, data],
      );
    } catch (err) {
      this.logger.warn({ siteId: block.siteId, day: block.day, err: (err as Error).message }, 'day block not stored');
    }
  }

  /**
   * Reads one day from raw hits for a fold at `foldedAt`: its block, holding
   * every pageview the fold counts, and, when blocks are on and it is small
   * enough to store, its encoding for `summary_blocks` (then it is kept in
   * memory too).
   */
  async readForFold(siteId: number, day: number, foldedAt: number): Promise<{ block: DayBlock; data: Buffer | null }> {
    const [block] = await this.readRaw(siteId, [{ day, fold: { foldedAt, pageviews: 0 } }], this.dimensions());
    block!.fold = { foldedAt, pageviews: block!.rows };
    if (!this.enabled) return { block: block!, data: null };
    const data = encodeBlock(this.keep(block!));
    return { block: block!, data: data.length > MAX_STORED_BYTES ? null : data };
  }

  /** Blocks of the given days (sorted, not always consecutive) from raw hits. */
  private async readRaw(siteId: number, days: readonly Missing[], dimensions: string[]): Promise<DayBlock[]> {
    const ends = days.map((d) => nextDay(d.day, this.timezone));
    const defs = dimensions.map((name) => this.catalog.dimension(name));
    const joins = new Set<string>(['session', ...defs.flatMap((d) => d.joins)]);
    const columns = joinFrags(
      [
        frag('s.uid AS uid, s.session_id AS session_id, s.time AS time, s.time_on_page AS top, s.page_type AS pt'),
        frag('ses.bounce AS bounce, ses.first_time_visit AS ft, ses.time AS st'),
        frag(goalsOfPageview(this.db)),
        ...defs.map((d, i) => frag(`${d.expr} AS d${i}`)),
      ],
      ', ',
    );
    const sql = `SELECT ${columns.sql} FROM ${this.db.quote(this.db.table('statistics'))} s ${this.catalog.joinSql(this.db, joins)} WHERE s.site_id = ? AND s.time >= ? AND s.time < ? ORDER BY s.session_id, s.time, s.ID`;
    const params = [...columns.params, siteId, days[0]!.day, ends[ends.length - 1]!];
    const rows = await this.runner.select<BlockRow>('statistics_day_blocks', { sql, params }, this.runner.timeoutMs * 10);
    const byDay = days.map(() => [] as BlockRow[]);
    for (const row of rows) {
      const time = Number(row.time);
      let at = days.length - 1;
      while (at > 0 && days[at]!.day > time) at--;
      if (time < ends[at]!) byDay[at]!.push(row);
    }
    return days.map((entry, i) => buildDayBlock(siteId, entry.day, entry.fold, byDay[i]!, dimensions));
  }

  private keep(block: DayBlock): DayBlock {
    const key = `${block.siteId}:${block.day}`;
    const old = this.cache.get(key);
    if (old) {
      this.cache.delete(key);
      this.bytes -= old.bytes;
    }
    this.cache.set(key, block);
    this.bytes += block.bytes;
    for (const [k, b] of this.cache) {
      if (this.bytes <= this.limitBytes) break;
      this.cache.delete(k);
      this.bytes -= b.bytes;
    }
    return block;
  }
}
