import type { Database } from '../db/database';
import { badRequest } from '../errors';
import { Accumulator, isAdditive } from './accumulator';
import { type BlockScan, scanBlocks } from './blocks/block-scan';
import { type BlockStore, inBlocks } from './blocks/block-store';
import type { DayBlock } from './blocks/day-block';
import type { Catalog } from './catalog';
import { bucketEdges, bucketLabel, daysOfMonth, monthStart, nextDay, wholeDays } from './dates';
import { type Component, DISTINCT, METRIC_DEFS, componentsFor, emptyComponents } from './metrics';
import { type Frag, bucketCase, frag } from './sql/fragment';
import { type Group, buildRawSelect } from './sql/raw-query';
import type { QueryRunner } from './sql/runner';
import { type DayRun, buildDimSketchSelect, buildSummarySelect } from './sql/summary-query';
import type { SummaryState } from './summaries/state';
import { isPlainFilter, type MetricName, type StatsQuery, type StatsRow, TIME_BUCKETS, type TimeBucket, type TimeRange } from './types';

/** More buckets than this is a request for a coarser grouping. */
export const MAX_BUCKETS = 1000;

/** The shortest length of each unit in seconds, to refuse huge groupings before computing them. */
const SHORTEST: Record<TimeBucket, number> = { hour: 3600, day: 82800, week: 601200, month: 28 * 86400 - 3600 };

const isBucket = (name: string): name is TimeBucket => (TIME_BUCKETS as readonly string[]).includes(name);

interface Plan {
  query: StatsQuery;
  /** The zone of the buckets. */
  tz: string;
  components: Component[];
  bucket: TimeBucket | null;
  edges: number[] | null;
  dimensions: string[];
  groups: Group[];
}

/**
 * Runs validated statistics queries. Whole days that are folded come from the
 * daily summaries; today, unfolded days and whatever the summaries cannot
 * answer (hourly grouping, non-summarised dimensions, several dimensions,
 * distinct visitors per dimension value) come from raw hits.
 */
export class StatisticsEngine {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly runner: QueryRunner,
    private readonly state: SummaryState,
    private readonly blocks: BlockStore,
    readonly timezone: string,
  ) {}

  async run(query: StatsQuery): Promise<StatsRow[]> {
    const plan = this.plan(query);
    const summaryDays = await this.summaryDays(plan);
    const acc = new Accumulator(plan.groups.map((g) => g.alias));
    if (summaryDays.length > 0) {
      await this.hybrid(plan, acc, subtractDays(query.range, summaryDays, this.timezone), summaryDays);
      return this.finish(plan, acc);
    }
    const blocks = await this.dayBlocks(plan);
    const days = blocks.map((b) => b.day).sort((a, b) => a - b);
    const rawRanges = subtractDays(query.range, days, this.timezone);
    if (blocks.length === 0) {
      acc.addCounts(await this.runner.select(query.id, this.raw(plan, rawRanges, plan.components)), plan.components);
    } else {
      const raw = rawRanges.length > 0 ? this.addRaw(plan, acc, rawRanges) : Promise.resolve();
      scanBlocks(blocks, this.blockScan(plan), acc, this.blocks.visitorIndex(query.siteId));
      await raw;
    }
    return this.finish(plan, acc);
  }

  /** Day blocks of the query's whole folded days, when every dimension it groups or filters by is in them. */
  private async dayBlocks(plan: Plan): Promise<DayBlock[]> {
    const { query } = plan;
    if (!this.blocks.enabled || query.mode === 'raw') return [];
    const used = [...plan.dimensions, ...query.filters.map((f) => f.dimension)];
    if (!used.every((name) => inBlocks(this.catalog.dimension(name)))) return [];
    return this.blocks.blocks(query.siteId, wholeDays(query.range, this.timezone));
  }

  private blockScan(plan: Plan): BlockScan {
    const { query } = plan;
    return {
      range: query.range,
      status: query.status,
      filters: query.filters,
      edges: plan.edges,
      dimensions: plan.dimensions,
      components: plan.components,
      caseInsensitiveEquals: this.db.dialect !== 'sqlite',
    };
  }

  /** The raw hits of `ranges`: additive components aggregated, distinct visitors listed for the sketches. */
  private addRaw(plan: Plan, acc: Accumulator, ranges: TimeRange[]): Promise<void> {
    const additive = plan.components.filter(isAdditive);
    const distinct = plan.components.some((c) => DISTINCT.includes(c));
    const select = (sql: Frag) => this.runner.select(plan.query.id, sql);
    const work: Array<Promise<void>> = [];
    if (additive.length) work.push(select(this.raw(plan, ranges, additive)).then((rows) => acc.addCounts(rows, additive)));
    if (distinct) work.push(select(this.raw(plan, ranges, [], true)).then((rows) => acc.addVisitors(rows)));
    return Promise.all(work).then(() => undefined);
  }

  private plan(query: StatsQuery): Plan {
    if (query.range.end <= query.range.start) throw badRequest('The date range is empty.', 'svc_invalid_date');
    const buckets = query.groupBy.filter(isBucket);
    if (buckets.length > 1) throw badRequest('Group by at most one of hour, day, week and month.', 'svc_invalid_group_by');
    const bucket = buckets[0] ?? null;
    const tz = query.timezone ?? this.timezone;
    const tooMany = bucket !== null && (query.range.end - query.range.start) / SHORTEST[bucket] > MAX_BUCKETS + 1;
    const edges = bucket && !tooMany ? bucketEdges(query.range, bucket, tz) : null;
    if (tooMany || (edges && edges.length - 1 > MAX_BUCKETS)) {
      throw badRequest(`Grouping this range by ${bucket} gives more than ${MAX_BUCKETS} points; choose a larger unit.`, 'svc_invalid_group_by');
    }
    const dimensions = query.groupBy.filter((g) => !isBucket(g)).map((g) => this.catalog.dimension(g).name);
    const groups: Group[] = [];
    if (edges) groups.push({ alias: 'gb', expr: bucketCase('s.time', edges), joins: [] });
    dimensions.forEach((name, i) => {
      const def = this.catalog.dimension(name);
      groups.push({ alias: `gd${i}`, expr: frag(def.expr), joins: def.joins });
    });
    const filters = query.filters.map((f) => ({ ...f, dimension: this.catalog.dimension(f.dimension).name }));
    const metrics: MetricName[] = [...query.metrics, ...(query.orderBy ? [query.orderBy] : [])];
    return { query: { ...query, filters }, tz, components: componentsFor(metrics), bucket, edges, dimensions, groups };
  }

  /** Folded whole days the summaries can answer this query for. */
  private async summaryDays(plan: Plan): Promise<number[]> {
    const { query } = plan;
    // Summaries keep 404 and other hits apart; sessions mixing both would count twice for status 'all'.
    if (query.mode === 'raw' || plan.bucket === 'hour' || query.status === 'all') return [];
    // Summaries hold the install's days: buckets of another zone cannot be cut from them.
    if (plan.bucket !== null && plan.tz !== this.timezone) return [];
    const used = new Set([...plan.dimensions, ...query.filters.map((f) => f.dimension)]);
    if (used.size > 1 || plan.dimensions.length > 1) return [];
    // Summary rows hold one value each: only one filter of one value compared with `is` can pick them.
    if (query.filters.length > 1 || !query.filters.every(isPlainFilter)) return [];
    if (used.size === 1) {
      const def = this.catalog.dimension([...used][0]!);
      if (!def.summarised || !(def.sketched || plan.components.every(isAdditive))) return [];
    }
    const days = wholeDays(query.range, this.timezone);
    const current = await this.state.current(query.siteId, days);
    return days.filter((d) => current.has(d));
  }

  private raw(plan: Plan, ranges: TimeRange[], components: readonly Component[], visitorList = false) {
    return buildRawSelect(this.db, this.catalog, {
      siteId: plan.query.siteId,
      ranges,
      status: plan.query.status,
      filters: plan.query.filters,
      groups: plan.groups,
      components,
      visitorList,
    });
  }

  /** Raw hits for the days the summaries do not hold, summaries (daily and monthly) for the rest, queried concurrently. */
  private async hybrid(plan: Plan, acc: Accumulator, rawRanges: TimeRange[], summaryDays: number[]): Promise<void> {
    const { query } = plan;
    const additive = plan.components.filter(isAdditive);
    const distinct = plan.components.some((c) => DISTINCT.includes(c));
    const select = (sql: Frag) => this.runner.select(query.id, sql);
    const work: Array<Promise<void>> = [];
    if (rawRanges.length > 0) work.push(this.addRaw(plan, acc, rawRanges));
    const filter = query.filters[0];
    const dimension = plan.dimensions[0] ?? filter?.dimension;
    const base = {
      siteId: query.siteId,
      status: query.status,
      bucket: plan.edges ? bucketCase('x.day', plan.edges) : null,
      dimension: dimension ? { name: dimension, group: plan.dimensions.length > 0, value: filter?.value ?? null } : null,
      components: additive,
    };
    // Visitors per value of a dimension come from its daily sketches; totals carry theirs in their own rows.
    const dimensionSketches = distinct && base.dimension !== null;
    if (dimensionSketches) {
      work.push(select(buildDimSketchSelect(this.db, { ...base, dimension: base.dimension!, runs: dayRuns(summaryDays, this.timezone) })).then((rows) => acc.addSketches(rows)));
    }
    // Whole months come from the monthly roll-ups, unless the grouping is finer than a month.
    const split = plan.bucket === null || plan.bucket === 'month' ? splitMonths(summaryDays, this.timezone) : { months: [], days: summaryDays };
    const parts = [
      { runs: dayRuns(split.days, this.timezone), months: false },
      { runs: split.months.map((m) => ({ first: m, last: m })), months: true },
    ].filter((p) => p.runs.length > 0);
    const totalSketches = distinct && !dimensionSketches;
    for (const part of parts) {
      if (additive.length === 0 && !totalSketches) continue;
      work.push(
        select(buildSummarySelect(this.db, { ...base, ...part, sketches: totalSketches })).then((rows) => {
          acc.addCounts(rows, additive);
          if (totalSketches) acc.addSketches(rows);
        }),
      );
    }
    await Promise.all(work);
  }

  private finish(plan: Plan, acc: Accumulator): StatsRow[] {
    const { query, bucket, edges, dimensions, tz } = plan;
    const results = acc.results();
    if (edges && dimensions.length === 0) {
      const seen = new Set(results.map((r) => r.keys[0]));
      for (let i = 0; i < edges.length - 1; i++) {
        if (!seen.has(i)) results.push({ keys: [i], components: emptyComponents() });
      }
    }
    const rows = results.map(({ keys, components }) => {
      const row: StatsRow = {};
      plan.groups.forEach((g, i) => {
        if (g.alias === 'gb') {
          row[bucket!] = bucketLabel(edges![Number(keys[i])]!, bucket!, tz);
          row.start = edges![Number(keys[i])]!;
        } else {
          row[dimensions[Number(g.alias.slice(2))]!] = keys[i]!;
        }
      });
      for (const m of query.metrics) row[m] = METRIC_DEFS[m].derive(components);
      return { row, keys, sortValue: METRIC_DEFS[query.orderBy ?? query.metrics[0] ?? 'pageviews'].derive(components) };
    });
    if (bucket) rows.sort((a, b) => Number(a.keys[0]) - Number(b.keys[0]) || compareKeys(a.keys, b.keys));
    else rows.sort((a, b) => b.sortValue - a.sortValue || compareKeys(a.keys, b.keys));
    const limited = query.limit ? rows.slice(0, query.limit) : rows;
    return limited.map((r) => r.row);
  }
}

function compareKeys(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): number {
  for (let i = 0; i < a.length; i++) {
    const x = String(a[i]);
    const y = String(b[i]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** `range` without the whole days in `days` (sorted, inside the range). */
export function subtractDays(range: TimeRange, days: readonly number[], tz: string): TimeRange[] {
  const out: TimeRange[] = [];
  let at = range.start;
  for (const day of days) {
    if (day > at) out.push({ start: at, end: day });
    at = nextDay(day, tz);
  }
  if (at < range.end) out.push({ start: at, end: range.end });
  return out;
}

/** Months all of whose days are in `days`, and the remaining days. */
function splitMonths(days: readonly number[], tz: string): { months: number[]; days: number[] } {
  const byMonth = new Map<number, number[]>();
  for (const day of days) {
    const month = monthStart(day, tz);
    const list = byMonth.get(month);
    if (list) list.push(day);
    else byMonth.set(month, [day]);
  }
  const months: number[] = [];
  const rest: number[] = [];
  for (const [month, list] of byMonth) {
    if (list.length === daysOfMonth(month, tz).length) months.push(month);
    else rest.push(...list);
  }
  return { months, days: rest };
}

function dayRuns(days: readonly number[], tz: string): DayRun[] {
  const runs: DayRun[] = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    if (last && nextDay(last.last, tz) === day) last.last = day;
    else runs.push({ first: day, last: day });
  }
  return runs;
}
