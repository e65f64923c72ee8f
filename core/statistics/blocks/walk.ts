import type { Database } from '../../db/database';
import type { Catalog } from '../catalog';
import { wholeDays } from '../dates';
import { subtractDays } from '../engine';
import { prepareVisitor } from '../sketch';
import { frag } from '../sql/fragment';
import { rawFrom } from '../sql/raw-query';
import type { QueryRunner } from '../sql/runner';
import type { StatsFilter, StatusFilter, TimeRange } from '../types';
import { type BlockRows, rowMask } from './block-scan';
import { type BlockStore, goalsOfPageview, inBlocks } from './block-store';
import type { DayBlock } from './day-block';
import type { VisitorIndex } from './visitor-index';

/** One pageview of a walk. The object is reused from one call to the next: copy what you keep. */
export interface WalkedPageview {
  /** The id of its session. */
  session: number;
  /** Tells visitors apart: the same number on every day of a walk, small enough to index an array by. */
  visitor: number;
  time: number;
  page: string;
  /** Ids of the goals it completed. */
  goals: ArrayLike<number>;
}

export interface WalkSource {
  siteId: number;
  range: TimeRange;
  status: StatusFilter;
  filters: readonly StatsFilter[];
  /** Only pageviews of pages this accepts, or that completed a goal (asked once per distinct page of a day). */
  pages?: (page: string) => boolean;
}

const NO_GOALS: readonly number[] = [];

type Segment = { start: number; block: DayBlock } | { start: number; rows: ReadonlyArray<Record<string, unknown>> };

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
    const raw = await Promise.all(rawRanges.map((range) => this.rawRows(queryId, { ...src, filters, range })));
    rawRanges.forEach((range, i) => segments.push({ start: range.start, rows: raw[i]! }));
    segments.sort((a, b) => a.start - b.start);

    const pageview: WalkedPageview = { session: 0, visitor: 0, time: 0, page: '', goals: NO_GOALS };
    const visitors = this.blocks.visitorIndex(src.siteId);
    const rows = { range: src.range, status: src.status, filters, caseInsensitiveEquals: this.db.dialect !== 'sqlite', pages: src.pages };
    for (const segment of segments) {
      if ('block' in segment) this.walkBlock(segment.block, visitors.numbers(segment.block), rows, pageview, visit);
      else this.walkRows(segment.rows, visitors, src.pages, pageview, visit);
    }
  }

  private walkBlock(block: DayBlock, visitors: Uint32Array, rows: BlockRows & Pick<WalkSource, 'pages'>, pageview: WalkedPageview, visit: (pageview: WalkedPageview) => void): void {
    const mask = rowMask(block, rows);
    const pages = block.columns.get('page_url')!;
    const wanted = pages.values.map((page) => (page !== null && (rows.pages?.(page) ?? true) ? 1 : 0));
    let goalAt = 0;
    for (let i = 0; i < block.rows; i++) {
      const completed = block.goals[i]!;
      goalAt += completed;
      if (mask[i] === 0) continue;
      const s = block.session[i]!;
      const page = pages.codes[pages.perSession ? s : i]!;
      if (wanted[page] === 0 && completed === 0) continue;
      pageview.session = block.sessionIds[s]!;
      pageview.visitor = visitors[block.sessionVisitor[s]!]!;
      pageview.time = block.time[i]!;
      pageview.page = pages.values[page] ?? '';
      pageview.goals = completed === 0 ? NO_GOALS : block.goalIds.subarray(goalAt - completed, goalAt);
      visit(pageview);
    }
  }

  private walkRows(rows: ReadonlyArray<Record<string, unknown>>, index: VisitorIndex, pages: WalkSource['pages'], pageview: WalkedPageview, visit: (pageview: WalkedPageview) => void): void {
    const visitors = new Map<string, number>();
    for (const row of rows) {
      const page = String(row.page ?? '');
      const goals = row.goals === null || row.goals === undefined || row.goals === '' ? NO_GOALS : String(row.goals).split(',').map(Number);
      if (pages && goals.length === 0 && !pages(page)) continue;
      const uid = String(row.uid);
      let visitor = visitors.get(uid);
      if (visitor === undefined) {
        const prepared = prepareVisitor(uid);
        visitors.set(uid, (visitor = index.number(prepared.key, prepared.register)));
      }
      pageview.session = Number(row.session_id);
      pageview.visitor = visitor;
      pageview.time = Number(row.time);
      pageview.page = page;
      pageview.goals = goals;
      visit(pageview);
    }
  }

  private rawRows(queryId: string, src: WalkSource): Promise<Array<Record<string, unknown>>> {
    const from = rawFrom(this.db, this.catalog, { ...src, ranges: [src.range] });
    const select = frag(`SELECT s.session_id AS session_id, s.uid AS uid, s.time AS time, s.page_url AS page, ${goalsOfPageview(this.db)} ${from.sql} ORDER BY s.time, s.ID`, from.params);
    return this.runner.select(queryId, select);
  }
}
