import type { Accumulator, AccumulatorGroup } from '../accumulator';
import { lastAtOrBefore } from '../dates';
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
const bucketOf = (edges: readonly number[], time: number): number => lastAtOrBefore(edges, time, edges.length - 2);

/** Codes of a column per pageview (a per-session column spread over its sessions' pageviews) in `out`, one array type for every block. */
function rowCodes(block: DayBlock, column: BlockColumn, out: Uint32Array): Uint32Array {
  const { session, rows } = block;
  const codes = column.codes;
  if (!column.perSession) out.set(codes);
  else for (let i = 0; i < rows; i++) out[i] = codes[session[i]!]!;
  return out;
}

/** A copy of `a` twice as long. */
function grown(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

/** A typed array of at least `size` entries: `current` when it is large enough. */
function room<T extends Uint32Array | Int32Array | Float64Array>(current: T, size: number, make: (n: number) => T): T {
  return current.length >= size ? current : make(Math.max(size, current.length * 2));
}

/** 1 for each pageview of the block that is in the range, of the status and passes every filter. */
export function rowMask(block: DayBlock, rows: BlockRows): Uint8Array {
  const n = block.rows;
  const { time, notFound } = block;
  const mask = new Uint8Array(n);
  const status = rows.status === '404' ? 1 : rows.status === '200' ? 0 : -1;
  if (status === -1) mask.fill(1);
  else for (let i = 0; i < n; i++) mask[i] = notFound[i] === status ? 1 : 0;
  const { start, end } = rows.range;
  if (block.firstTime < start || block.lastTime >= end) {
    for (let i = 0; i < n; i++) if (time[i]! < start || time[i]! >= end) mask[i] = 0;
  }
  for (const f of rows.filters) {
    const column = block.columns.get(f.dimension)!;
    const pass = matches(column.values, f, rows.caseInsensitiveEquals);
    const codes = column.codes;
    if (column.perSession) {
      const { session } = block;
      for (let i = 0; i < n; i++) if (pass[codes[session[i]!]!] === 0) mask[i] = 0;
    } else {
      for (let i = 0; i < n; i++) if (pass[codes[i]!] === 0) mask[i] = 0;
    }
  }
  return mask;
}

/** Up to this many possible groups in a block are found by index rather than in a map. */
const DIRECT_GROUPS = 65536;

/** Adds what the blocks hold of the query to `acc`: the same components the raw hits of those days would give. */
export function scanBlocks(blocks: readonly DayBlock[], scan: BlockScan, acc: Accumulator): void {
  const want = new Set(scan.components);
  const visitors = want.has('visitors');
  const firstTime = want.has('first_time_visitors');
  const converted = want.has('converted_visitors');
  const perSession = want.has('sessions') || want.has('bounces') || visitors || firstTime;
  // Without grouping there is one answer row, even when nothing matches (as an aggregate query gives).
  if (!scan.edges && scan.dimensions.length === 0) acc.group([]);
  const edges = scan.edges;
  const buckets = edges ? edges.length - 1 : 1;
  // Work arrays reused from block to block: the codes of each grouping column, the local group of each key, and each local group's counters.
  const codeBuffers: Uint32Array[] = scan.dimensions.map(() => new Uint32Array(0));
  let direct: Int32Array = new Int32Array(0);
  let pageviews: Float64Array = new Float64Array(64);
  let timeOnPage: Float64Array = new Float64Array(64);
  let conversions: Float64Array = new Float64Array(64);
  let sessions: Float64Array = new Float64Array(64);
  let bounces: Float64Array = new Float64Array(64);
  const groups: AccumulatorGroup[] = [];
  const sessionGroups: number[] = [];
  for (const block of blocks) {
    const { rows, time, session, goals, sessionVisitor, sessionBounce, sessionFirstTime, visitorKeys, visitorRegisters } = block;
    if (rows === 0) continue;
    const mask = rowMask(block, scan);
    const columns: BlockColumn[] = scan.dimensions.map((d) => block.columns.get(d)!);
    const codes = columns.map((c, d) => rowCodes(block, c, (codeBuffers[d] = room(codeBuffers[d]!, rows, (n) => new Uint32Array(n)))));
    const radix = columns.map((c) => c.values.length);
    // A day inside one bucket (a day, week or month of the install's zone) has it once.
    const oneBucket = edges && bucketOf(edges, block.firstTime) === bucketOf(edges, block.lastTime) ? bucketOf(edges, block.firstTime) : -1;
    // Grouping keys are numbers while every combination of codes fits (an index of groups when there are few), otherwise strings.
    const space = radix.reduce((a, b) => a * b, buckets);
    const numeric = space < Number.MAX_SAFE_INTEGER;
    const indexed = space <= DIRECT_GROUPS;
    if (indexed) {
      direct = room(direct, space, (n) => new Int32Array(n));
      direct.fill(-1, 0, space);
    }
    const local = new Map<number | string, number>();
    groups.length = 0;
    let reached = 0;
    let current = -1;
    for (let i = 0; i < rows; i++) {
      if (mask[i] === 0) continue;
      const s = session[i]!;
      if (s !== current) {
        current = s;
        reached = 0;
      }
      const bucket = edges === null ? 0 : oneBucket >= 0 ? oneBucket : bucketOf(edges, time[i]!);
      let key: number | string;
      if (numeric) {
        let k = bucket;
        let scale = buckets;
        for (let d = 0; d < codes.length; d++) {
          k += codes[d]![i]! * scale;
          scale *= radix[d]!;
        }
        key = k;
      } else {
        let k = String(bucket);
        for (const c of codes) k += `,${c[i]!}`;
        key = k;
      }
      let g = indexed ? direct[key as number]! : (local.get(key) ?? -1);
      if (g === -1) {
        const keys: Array<string | number> = [];
        if (edges) keys.push(bucket);
        columns.forEach((c, d) => keys.push(c.values[codes[d]![i]!] ?? ''));
        g = groups.length;
        groups.push(acc.group(keys));
        if (g >= pageviews.length) {
          pageviews = grown(pageviews);
          timeOnPage = grown(timeOnPage);
          conversions = grown(conversions);
          sessions = grown(sessions);
          bounces = grown(bounces);
        }
        pageviews[g] = timeOnPage[g] = conversions[g] = sessions[g] = bounces[g] = 0;
        if (indexed) direct[key as number] = g;
        else local.set(key, g);
      }
      pageviews[g]!++;
      timeOnPage[g]! += block.timeOnPage[i]!;
      const completed = goals[i]!;
      conversions[g]! += completed;
      const v = sessionVisitor[s]!;
      const group = groups[g]!;
      if (converted && completed > 0) (group.converted ??= new VisitorSketch()).addPrepared(visitorKeys[v]!, visitorRegisters[v]!);
      if (perSession) {
        let seen = false;
        for (let r = 0; r < reached && !seen; r++) seen = sessionGroups[r] === g;
        if (seen) continue;
        sessionGroups[reached++] = g;
        sessions[g]!++;
        bounces[g]! += sessionBounce[s]!;
        if (visitors) (group.visitors ??= new VisitorSketch()).addPrepared(visitorKeys[v]!, visitorRegisters[v]!);
        if (firstTime && sessionFirstTime[s] === 1) (group.firstTime ??= new VisitorSketch()).addPrepared(visitorKeys[v]!, visitorRegisters[v]!);
      }
    }
    groups.forEach((group, g) => {
      const c = group.components;
      if (want.has('pageviews')) c.pageviews += pageviews[g]!;
      if (want.has('time_on_page')) c.time_on_page += timeOnPage[g]!;
      if (want.has('conversions')) c.conversions += conversions[g]!;
      if (want.has('sessions')) c.sessions += sessions[g]!;
      if (want.has('bounces')) c.bounces += bounces[g]!;
    });
  }
}
