import type { Accumulator, AccumulatorGroup } from '../accumulator';
import { lastAtOrBefore } from '../dates';
import type { Component } from '../metrics';
import type { VisitorSketch } from '../sketch';
import { filterValues, type StatsFilter, type StatusFilter, type TimeRange } from '../types';
import type { BlockColumn, DayBlock } from './day-block';
import { room, roomFor } from './typed-arrays';
import { VisitorMarks } from './visitor-marks';
import type { VisitorIndex } from './visitor-index';

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
const bucketOf = (edges: readonly number[], time: number): number => lastAtOrBefore(edges, time, edges.length - 2);

/** A column's code of each selected pageview (a per-session column's through its session) in `out`. */
function selectedCodes(block: DayBlock, column: BlockColumn, selected: Int32Array, count: number, out: Uint32Array): Uint32Array {
  const codes = column.codes;
  if (column.perSession) {
    const { session } = block;
    for (let k = 0; k < count; k++) out[k] = codes[session[selected[k]!]!]!;
  } else {
    for (let k = 0; k < count; k++) out[k] = codes[selected[k]!]!;
  }
  return out;
}

/**
 * Narrows the first `count` pageviews listed in `selected` (indexes into the
 * block, in order) to those in the range, of the status and passing every
 * filter, in place; how many are left. One pass per condition, each over the
 * pageviews still listed.
 */
export function keepRows(block: DayBlock, rows: BlockRows, selected: Int32Array, count: number): number {
  const { time, notFound, session } = block;
  if (rows.status !== 'all') {
    const status = rows.status === '404' ? 1 : 0;
    let kept = 0;
    for (let k = 0; k < count; k++) if (notFound[selected[k]!] === status) selected[kept++] = selected[k]!;
    count = kept;
  }
  const { start, end } = rows.range;
  if (block.firstTime < start || block.lastTime >= end) {
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const t = time[selected[k]!]!;
      if (t >= start && t < end) selected[kept++] = selected[k]!;
    }
    count = kept;
  }
  for (const f of rows.filters) {
    const column = block.columns.get(f.dimension)!;
    const pass = matches(column.values, f, rows.caseInsensitiveEquals);
    const codes = column.codes;
    let kept = 0;
    if (column.perSession) {
      for (let k = 0; k < count; k++) if (pass[codes[session[selected[k]!]!]!] !== 0) selected[kept++] = selected[k]!;
    } else {
      for (let k = 0; k < count; k++) if (pass[codes[selected[k]!]!] !== 0) selected[kept++] = selected[k]!;
    }
    count = kept;
  }
  return count;
}

/** Up to this many possible groups in a block are found by index rather than in a map. */
const DIRECT_GROUPS = 65536;

/** Additive counters per group of a scan, grown as groups appear. */
class Counters {
  pageviews = new Float64Array(64);
  timeOnPage = new Float64Array(64);
  conversions = new Float64Array(64);
  sessions = new Float64Array(64);
  bounces = new Float64Array(64);

  /** Makes room for group `g`. */
  reserve(g: number): void {
    const make = (n: number) => new Float64Array(n);
    this.pageviews = roomFor(this.pageviews, g, make);
    this.timeOnPage = roomFor(this.timeOnPage, g, make);
    this.conversions = roomFor(this.conversions, g, make);
    this.sessions = roomFor(this.sessions, g, make);
    this.bounces = roomFor(this.bounces, g, make);
  }
}

/**
 * The groups of one scan: each block's grouping keys (a time bucket and the
 * codes of the grouping columns) resolved to the scan's group numbers, one
 * per accumulator group.
 */
class ScanGroups {
  readonly groups: AccumulatorGroup[] = [];
  private readonly numbers = new Map<AccumulatorGroup, number>();
  private readonly codeBuffers: Uint32Array[];
  private keys = new Float64Array(0);
  private smallKeys = new Int32Array(0);
  private direct = new Int32Array(0);

  constructor(
    private readonly acc: Accumulator,
    private readonly scan: BlockScan,
    readonly counters: Counters,
  ) {
    this.codeBuffers = scan.dimensions.map(() => new Uint32Array(0));
  }

  /** The scan's group of each selected pageview of the block (`count` indexes in `selected`) in `out`. */
  assign(block: DayBlock, selected: Int32Array, count: number, out: Int32Array): void {
    const { time } = block;
    const { edges } = this.scan;
    const buckets = edges ? edges.length - 1 : 1;
    const columns: BlockColumn[] = this.scan.dimensions.map((d) => block.columns.get(d)!);
    const codes = columns.map((c, d) => selectedCodes(block, c, selected, count, (this.codeBuffers[d] = room(this.codeBuffers[d]!, count, (n) => new Uint32Array(n)))));
    const radix = columns.map((c) => c.values.length);
    const space = radix.reduce((a, b) => a * b, buckets);
    const make = (k: number, bucket: number): number => {
      const keys: Array<string | number> = edges ? [bucket] : [];
      columns.forEach((c, d) => keys.push(c.values[codes[d]![k]!] ?? ''));
      const group = this.acc.group(keys);
      let g = this.numbers.get(group);
      if (g === undefined) {
        g = this.groups.length;
        this.groups.push(group);
        this.numbers.set(group, g);
        this.counters.reserve(g);
      }
      return g;
    };
    // A day inside one bucket (a day, week or month of the install's zone) has it once.
    const oneBucket = edges && bucketOf(edges, block.firstTime) === bucketOf(edges, block.lastTime) ? bucketOf(edges, block.firstTime) : -1;
    const bucketAt = (k: number) => (edges === null ? 0 : oneBucket >= 0 ? oneBucket : bucketOf(edges, time[selected[k]!]!));
    if (space >= Number.MAX_SAFE_INTEGER) {
      // Too many combinations for a number: keys as strings.
      const local = new Map<string, number>();
      for (let k = 0; k < count; k++) {
        const bucket = bucketAt(k);
        let key = String(bucket);
        for (const c of codes) key += `,${c[k]!}`;
        let g = local.get(key);
        if (g === undefined) local.set(key, (g = make(k, bucket)));
        out[k] = g;
      }
      return;
    }
    if (space <= DIRECT_GROUPS) {
      const keys = (this.smallKeys = room(this.smallKeys, count, (n) => new Int32Array(n)));
      this.keysOf(keys, count, codes, radix, buckets, bucketAt);
      const direct = (this.direct = room(this.direct, space, (n) => new Int32Array(n)));
      direct.fill(-1, 0, space);
      for (let k = 0; k < count; k++) {
        const key = keys[k]!;
        let g = direct[key]!;
        if (g === -1) g = direct[key] = make(k, bucketAt(k));
        out[k] = g;
      }
      return;
    }
    const keys = (this.keys = room(this.keys, count, (n) => new Float64Array(n)));
    this.keysOf(keys, count, codes, radix, buckets, bucketAt);
    const local = new Map<number, number>();
    for (let k = 0; k < count; k++) {
      let g = local.get(keys[k]!);
      if (g === undefined) local.set(keys[k]!, (g = make(k, bucketAt(k))));
      out[k] = g;
    }
  }

  /** Each selected pageview's grouping key: its bucket, then each column's code, as digits of mixed radix. */
  private keysOf<T extends Int32Array | Float64Array>(keys: T, count: number, codes: Uint32Array[], radix: number[], buckets: number, bucketAt: (k: number) => number): void {
    if (buckets === 1) keys.fill(0, 0, count);
    else for (let k = 0; k < count; k++) keys[k] = bucketAt(k);
    let scale = buckets;
    for (let d = 0; d < codes.length; d++) {
      const c = codes[d]!;
      for (let k = 0; k < count; k++) keys[k]! += c[k]! * scale;
      scale *= radix[d]!;
    }
  }
}

/** Pageviews, time on page and goal completions of each group. */
function countRows(block: DayBlock, selected: Int32Array, count: number, groupOf: Int32Array, counters: Counters): void {
  const { timeOnPage, goals } = block;
  const { pageviews, timeOnPage: time, conversions } = counters;
  for (let k = 0; k < count; k++) {
    const i = selected[k]!;
    const g = groupOf[k]!;
    pageviews[g]!++;
    time[g]! += timeOnPage[i]!;
    conversions[g]! += goals[i]!;
  }
}

/** What a scan counts per session and visitor: sessions and bounces always, visitors in the marks it keeps. */
interface SessionCounts {
  counters: Counters;
  visitors: VisitorMarks | null;
  firstTime: VisitorMarks | null;
  converted: VisitorMarks | null;
}

/** Each session once per group it reached (its rows follow one another), with its visitor; visitors who completed a goal in a group. */
function countSessions(block: DayBlock, selected: Int32Array, count: number, groupOf: Int32Array, numbers: Uint32Array | null, counts: SessionCounts, reached: Int32Array): void {
  const { session, goals, sessionVisitor, sessionBounce, sessionFirstTime } = block;
  const { sessions, bounces } = counts.counters;
  const { visitors, firstTime, converted } = counts;
  let current = -1;
  let seen = 0;
  for (let k = 0; k < count; k++) {
    const i = selected[k]!;
    const g = groupOf[k]!;
    const s = session[i]!;
    if (s !== current) {
      current = s;
      seen = 0;
    }
    if (converted && goals[i]! > 0) converted.add(g, numbers![sessionVisitor[s]!]!);
    let again = false;
    for (let r = 0; r < seen && !again; r++) again = reached[r] === g;
    if (again) continue;
    reached[seen++] = g;
    sessions[g]!++;
    bounces[g]! += sessionBounce[s]!;
    if (visitors) visitors.add(g, numbers![sessionVisitor[s]!]!);
    if (firstTime && sessionFirstTime[s] === 1) firstTime.add(g, numbers![sessionVisitor[s]!]!);
  }
}

/**
 * Adds what the blocks hold of the query to `acc`: the same components the
 * raw hits of those days would give. `index` numbers the visitors of the
 * site's blocks.
 */
export function scanBlocks(blocks: readonly DayBlock[], scan: BlockScan, acc: Accumulator, index: VisitorIndex): void {
  const want = new Set(scan.components);
  // Without grouping there is one answer row, even when nothing matches (as an aggregate query gives).
  if (!scan.edges && scan.dimensions.length === 0) acc.group([]);
  const distinct = want.has('visitors') || want.has('first_time_visitors') || want.has('converted_visitors');
  const perSession = distinct || want.has('sessions') || want.has('bounces');
  const numbers = distinct ? blocks.map((b) => index.numbers(b)) : [];
  const marks = (component: Component) => (want.has(component) ? new VisitorMarks(index) : null);
  const counters = new Counters();
  const counts: SessionCounts = { counters, visitors: marks('visitors'), firstTime: marks('first_time_visitors'), converted: marks('converted_visitors') };
  const groups = new ScanGroups(acc, scan, counters);
  let selected = new Int32Array(0);
  let groupOf = new Int32Array(0);
  // The groups the current session reached: at most one per pageview of the longest session.
  let reached = new Int32Array(0);
  blocks.forEach((block, b) => {
    if (block.rows === 0) return;
    selected = room(selected, block.rows, (n) => new Int32Array(n));
    for (let i = 0; i < block.rows; i++) selected[i] = i;
    const count = keepRows(block, scan, selected, block.rows);
    if (count === 0) return;
    groupOf = room(groupOf, count, (n) => new Int32Array(n));
    reached = room(reached, count, (n) => new Int32Array(n));
    groups.assign(block, selected, count, groupOf);
    countRows(block, selected, count, groupOf, counters);
    if (perSession) countSessions(block, selected, count, groupOf, numbers[b] ?? null, counts, reached);
  });
  groups.groups.forEach((group, g) => {
    const c = group.components;
    if (want.has('pageviews')) c.pageviews += counters.pageviews[g]!;
    if (want.has('time_on_page')) c.time_on_page += counters.timeOnPage[g]!;
    if (want.has('conversions')) c.conversions += counters.conversions[g]!;
    if (want.has('sessions')) c.sessions += counters.sessions[g]!;
    if (want.has('bounces')) c.bounces += counters.bounces[g]!;
    group.visitors = merged(group.visitors, counts.visitors?.sketch(g));
    group.firstTime = merged(group.firstTime, counts.firstTime?.sketch(g));
    group.converted = merged(group.converted, counts.converted?.sketch(g));
  });
}

/** `a` with `b` merged in, either missing. */
function merged(a: VisitorSketch | null, b: VisitorSketch | null | undefined): VisitorSketch | null {
  if (!b) return a;
  if (!a) return b;
  a.merge(b);
  return a;
}
