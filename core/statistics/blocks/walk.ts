import type { Database } from '../../db/database';
import type { Catalog } from '../catalog';
import { wholeDays } from '../dates';
import { subtractDays } from '../engine';
import { prepareVisitor } from '../sketch';
import { frag } from '../sql/fragment';
import { rawFrom } from '../sql/raw-query';
import type { QueryRunner } from '../sql/runner';
import type { StatsFilter, StatusFilter, TimeRange } from '../types';
import { type BlockRows, keepRows } from './block-scan';
import { type BlockStore, goalsOfPageview, inBlocks } from './block-store';
import type { DayBlock } from './day-block';
import { room } from './typed-arrays';
import type { VisitorIndex } from './visitor-index';
import { WalkSessions } from './walk-sessions';

/** One pageview of a walk. The object is reused from one call to the next: copy what you keep. */
export interface WalkedPageview {
  /** Tells sessions apart: the same number on every day of a walk, small enough to index an array by. */
  session: number;
  /** Tells visitors apart: the same number on every day of a walk, small enough to index an array by. */
  visitor: number;
  time: number;
  page: string;
  /** Its page's tag (`WalkSource.tag`). */
  tag: number;
  /** Ids of the goals it completed. */
  goals: ArrayLike<number>;
}

export interface WalkSource {
  siteId: number;
  range: TimeRange;
  status: StatusFilter;
  filters: readonly StatsFilter[];
  /**
   * A page's tag, handed as the pageview's `tag` (asked once per distinct page of a day): 0 keeps only the
   * page's pageviews that completed a goal. Without it every pageview comes, tagged 1.
   */
  tag?: (page: string) => number;
}

// Goals are always a typed array, so a plugin's loop over them sees one kind of array.
const NO_GOALS = new Uint32Array(0);

/** Work arrays of one walk, reused from block to block. */
interface WalkWork {
  tags: Float64Array;
  picked: Int32Array;
  goalEnd: Int32Array;
}

type Segment = { start: number; block: DayBlock } | { start: number; end: number; rows: Promise<Array<Record<string, unknown>>> };

/**
 * Hands a plugin every pageview of a site's range that passes the status and
 * filters, each session's in time order and days in order (the funnels follow
 * sessions step by step; sessions of one day may interleave): folded
 * days from their day blocks, the other days from raw hits.
 */
export class PageviewWalker {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly runner: QueryRunner,
    private readonly blocks: BlockStore,
    private readonly timezone: string,
  ) {}

  async walk(queryId: string, src: WalkSource, visit: (pageview: WalkedPageview) => void): Promise<void> {
    const filters = src.filters.map((f) => ({ ...f, dimension: this.catalog.dimension(f.dimension).name }));
    const usable = this.blocks.enabled && filters.every((f) => inBlocks(this.catalog.dimension(f.dimension)));
    const blocks = usable ? await this.blocks.blocks(src.siteId, wholeDays(src.range, this.timezone)) : [];
    const segments: Segment[] = blocks.map((block) => ({ start: block.day, block }));
    const rawRanges = subtractDays(src.range, blocks.map((b) => b.day).sort((a, b) => a - b), this.timezone);
    // The raw hits are read while the blocks before them are walked.
    for (const range of rawRanges) segments.push({ start: range.start, end: range.end, rows: this.rawRows(queryId, { ...src, filters, range }) });
    segments.sort((a, b) => a.start - b.start);
    // A refused read should not go unhandled while earlier blocks are walked; it is thrown where it is awaited.
    for (const segment of segments) if ('rows' in segment) segment.rows.catch(() => undefined);

    const pageview: WalkedPageview = { session: 0, visitor: 0, time: 0, page: '', tag: 0, goals: NO_GOALS };
    const visitors = this.blocks.visitorIndex(src.siteId);
    const rows = { range: src.range, status: src.status, filters, caseInsensitiveEquals: this.db.dialect !== 'sqlite' };
    const tag = src.tag ?? (() => 1);
    const work: WalkWork = { tags: new Float64Array(0), picked: new Int32Array(0), goalEnd: new Int32Array(0) };
    const sessions = new WalkSessions();
    for (const segment of segments) {
      if ('block' in segment) {
        const { block } = segment;
        this.walkBlock(block, visitors.numbers(block), sessions.ofBlock(block), rows, tag, work, pageview, visit);
      } else this.walkRows(await segment.rows, visitors, sessions.ofRows(segment.start, segment.end), tag, pageview, visit);
    }
  }

  private walkBlock(block: DayBlock, visitors: Uint32Array, sessions: Uint32Array, rows: BlockRows, tag: (page: string) => number, work: WalkWork, pageview: WalkedPageview, visit: (pageview: WalkedPageview) => void): void {
    const pages = block.columns.get('page_url')!;
    const { values, codes, perSession } = pages;
    const tags = (work.tags = room(work.tags, values.length, (n) => new Float64Array(n)));
    for (let v = 0; v < values.length; v++) {
      const page = values[v];
      tags[v] = page === null || page === undefined ? 0 : tag(page);
    }
    const { goals, goalIds, session, sessionVisitor, time } = block;
    // First the pageviews of a tagged page or completing a goal, and where each pageview's goal ids end, in a loop
    // without calls; then those of them the range, status and filters keep; then one call each.
    const picked = (work.picked = room(work.picked, block.rows, (n) => new Int32Array(n)));
    const goalEnd = (work.goalEnd = room(work.goalEnd, block.rows, (n) => new Int32Array(n)));
    let count = 0;
    let goalAt = 0;
    for (let i = 0; i < block.rows; i++) {
      const completed = goals[i]!;
      goalAt += completed;
      goalEnd[i] = goalAt;
      if (completed !== 0 || tags[codes[perSession ? session[i]! : i]!] !== 0) picked[count++] = i;
    }
    count = keepRows(block, rows, picked, count);
    for (let k = 0; k < count; k++) {
      const i = picked[k]!;
      const s = session[i]!;
      const page = codes[perSession ? s : i]!;
      const completed = goals[i]!;
      pageview.session = sessions[s]!;
      pageview.visitor = visitors[sessionVisitor[s]!]!;
      pageview.time = time[i]!;
      pageview.page = values[page] ?? '';
      pageview.tag = tags[page]!;
      pageview.goals = completed === 0 ? NO_GOALS : goalIds.subarray(goalEnd[i]! - completed, goalEnd[i]!);
      visit(pageview);
    }
  }

  private walkRows(rows: ReadonlyArray<Record<string, unknown>>, index: VisitorIndex, session: (id: number, began: number | null, time: number) => number, tag: (page: string) => number, pageview: WalkedPageview, visit: (pageview: WalkedPageview) => void): void {
    const visitors = new Map<string, number>();
    for (const row of rows) {
      const page = String(row.page ?? '');
      const goals = row.goals === null || row.goals === undefined || row.goals === '' ? NO_GOALS : Uint32Array.from(String(row.goals).split(','), Number);
      const pageTag = tag(page);
      if (pageTag === 0 && goals.length === 0) continue;
      const uid = String(row.uid);
      let visitor = visitors.get(uid);
      if (visitor === undefined) {
        const prepared = prepareVisitor(uid);
        visitors.set(uid, (visitor = index.number(prepared.key, prepared.register)));
      }
      const time = Number(row.time);
      pageview.session = session(Number(row.session_id), row.began === null || row.began === undefined ? null : Number(row.began), time);
      pageview.visitor = visitor;
      pageview.time = time;
      pageview.page = page;
      pageview.tag = pageTag;
      pageview.goals = goals;
      visit(pageview);
    }
  }

  private rawRows(queryId: string, src: WalkSource): Promise<Array<Record<string, unknown>>> {
    const from = rawFrom(this.db, this.catalog, { ...src, ranges: [src.range] }, new Set(['session']));
    const select = frag(
      `SELECT s.session_id AS session_id, ses.time AS began, s.uid AS uid, s.time AS time, s.page_url AS page, ${goalsOfPageview(this.db)} ${from.sql} ORDER BY s.time, s.ID`,
      from.params,
    );
    return this.runner.select(queryId, select);
  }
}
