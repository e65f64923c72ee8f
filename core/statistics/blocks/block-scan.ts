import type { Accumulator, AccumulatorGroup } from '../accumulator';
import type { Component } from '../metrics';
import { VisitorSketch } from '../sketch';
import { filterValues, type StatsFilter, type StatusFilter, type TimeRange } from '../types';
import type { BlockColumn, DayBlock } from './day-block';

/** Which pageviews of the blocks count: in the range, of the status, passing every filter. */
export interface BlockRows {
  range: TimeRange;
  status: StatusFilter;
  filters: readonly StatsFilter[];
  /** `is` compares as the database's collation does: case-insensitively on MariaDB/MySQL. */
  caseInsensitiveEquals: boolean;
}

/** What a query asks of the blocks: which pageviews, their grouping and components. */
export interface BlockScan extends BlockRows {
  /** Bucket edges of a time grouping (group `gb`), or null. */
  edges: readonly number[] | null;
  /** Dimensions grouped by, in the order of the groups `gd0`, `gd1`... */
  dimensions: readonly string[];
  components: readonly Component[];
}

/** Whether each distinct value of a column passes the filter, as `filterCondition` decides in SQL. */
function matches(values: ReadonlyArray<string | null>, filter: StatsFilter, caseInsensitiveEquals: boolean): Uint8Array {
  const wanted = filterValues(filter);
  const operator = filter.operator ?? 'is';
  const fold = (v: string) => v.toLowerCase();
  const equal = caseInsensitiveEquals ? new Set(wanted.map(fold)) : new Set(wanted);
  const parts = wanted.map(fold);
  const out = new Uint8Array(values.length);
  values.forEach((value, code) => {
    let pass: boolean;
    if (value === null) pass = operator === 'is_not' || operator === 'not_contains';
    else if (operator === 'is' || operator === 'is_not') pass = equal.has(caseInsensitiveEquals ? fold(value) : value) === (operator === 'is');
    else pass = parts.some((p) => fold(value).includes(p)) === (operator === 'contains');
    out[code] = pass ? 1 : 0;
  });
  return out;
}

/** The bucket of `time` among `edges` (time is inside them). */
function bucketOf(edges: readonly number[], time: number): number {
  let lo = 0;
  let hi = edges.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (edges[mid]! <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A test of pageview `i` of the block against `rows`. */
export function rowTest(block: DayBlock, rows: BlockRows): (i: number) => boolean {
  const { time, notFound } = block;
  const { start, end } = rows.range;
  const status = rows.status === '404' ? 1 : rows.status === '200' ? 0 : -1;
  const filters = rows.filters.map((f) => {
    const column = block.columns.get(f.dimension)!;
    return { codes: column.codes, pass: matches(column.values, f, rows.caseInsensitiveEquals) };
  });
  return (i) => {
    const t = time[i]!;
    if (t < start || t >= end || (status !== -1 && notFound[i] !== status)) return false;
    for (const f of filters) if (f.pass[f.codes[i]!] === 0) return false;
    return true;
  };
}

interface LocalGroup {
  group: AccumulatorGroup;
  /** Its number within the block, to tell (group, session) pairs apart. */
  index: number;
  pageviews: number;
  timeOnPage: number;
  conversions: number;
  sessions: number;
  bounces: number;
}

/** Adds what the blocks hold of the query to `acc`: the same components the raw hits of those days would give. */
export function scanBlocks(blocks: readonly DayBlock[], scan: BlockScan, acc: Accumulator): void {
  const want = new Set(scan.components);
  const distinctSessions = want.has('sessions') || want.has('bounces');
  const visitors = want.has('visitors');
  const firstTime = want.has('first_time_visitors');
  const converted = want.has('converted_visitors');
  // Without grouping there is one answer row, even when nothing matches (as an aggregate query gives).
  if (!scan.edges && scan.dimensions.length === 0) acc.group([]);
  for (const block of blocks) {
    const { rows, time, session } = block;
    if (rows === 0) continue;
    const counts = rowTest(block, scan);
    const columns: BlockColumn[] = scan.dimensions.map((d) => block.columns.get(d)!);
    const radix = columns.map((c) => c.values.length);
    const edges = scan.edges;
    const buckets = edges ? edges.length - 1 : 1;
    // Grouping keys are numbers while every combination of codes fits; otherwise strings.
    const numeric = radix.reduce((a, b) => a * b, buckets) < Number.MAX_SAFE_INTEGER;
    const local = new Map<number | string, LocalGroup>();
    const seen = distinctSessions || visitors || firstTime ? new Set<number>() : null;
    for (let i = 0; i < rows; i++) {
      if (!counts(i)) continue;
      const bucket = edges ? bucketOf(edges, time[i]!) : 0;
      let key: number | string;
      if (numeric) {
        let k = bucket;
        let scale = buckets;
        for (let d = 0; d < columns.length; d++) {
          k += columns[d]!.codes[i]! * scale;
          scale *= radix[d]!;
        }
        key = k;
      } else {
        let k = String(bucket);
        for (const c of columns) k += `,${c.codes[i]!}`;
        key = k;
      }
      let g = local.get(key);
      if (!g) {
        const keys: Array<string | number> = [];
        if (edges) keys.push(bucket);
        for (const c of columns) keys.push(c.values[c.codes[i]!] ?? '');
        g = { group: acc.group(keys), index: local.size, pageviews: 0, timeOnPage: 0, conversions: 0, sessions: 0, bounces: 0 };
        local.set(key, g);
      }
      g.pageviews++;
      g.timeOnPage += block.timeOnPage[i]!;
      const completed = block.goals[i]!;
      g.conversions += completed;
      const s = session[i]!;
      const v = block.sessionVisitor[s]!;
      if (converted && completed > 0) (g.group.converted ??= new VisitorSketch()).addPrepared(block.visitorKeys[v]!, block.visitorRegisters[v]!);
      if (seen) {
        const pair = g.index * block.sessions + s;
        if (seen.has(pair)) continue;
        seen.add(pair);
        g.sessions++;
        g.bounces += block.sessionBounce[s]!;
        if (visitors) (g.group.visitors ??= new VisitorSketch()).addPrepared(block.visitorKeys[v]!, block.visitorRegisters[v]!);
        if (firstTime && block.sessionFirstTime[s] === 1) (g.group.firstTime ??= new VisitorSketch()).addPrepared(block.visitorKeys[v]!, block.visitorRegisters[v]!);
      }
    }
    for (const g of local.values()) {
      const c = g.group.components;
      if (want.has('pageviews')) c.pageviews += g.pageviews;
      if (want.has('time_on_page')) c.time_on_page += g.timeOnPage;
      if (want.has('conversions')) c.conversions += g.conversions;
      if (want.has('sessions')) c.sessions += g.sessions;
      if (want.has('bounces')) c.bounces += g.bounces;
    }
  }
}
