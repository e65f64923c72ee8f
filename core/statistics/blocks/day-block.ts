import { prepareVisitor } from '../sketch';

type Codes = Uint8Array | Uint16Array | Uint32Array;

/**
 * A dimension of a day block: a code into the day's distinct values per
 * pageview, or per session when every pageview of each session has the same
 * value (the referrer, the browser, the country...).
 */
export interface BlockColumn {
  codes: Codes;
  perSession: boolean;
  values: ReadonlyArray<string | null>;
}

/**
 * The pageviews of one site and one folded day, column by column, so any
 * grouping and filter over a range is a pass over typed arrays instead of a
 * query over raw hits. Sessions and visitors are numbered within the day.
 */
export interface DayBlock {
  siteId: number;
  day: number;
  /** The fold the block was read after (`summary_state.folded_at`, the day's pageviews in `summary_days`); another fold replaces it. */
  fold: DayFold;
  rows: number;
  /** The earliest and latest time of its pageviews. */
  firstTime: number;
  lastTime: number;
  time: Uint32Array;
  timeOnPage: Float32Array;
  /** 1 for a 404 pageview. */
  notFound: Uint8Array;
  /** How many goals each pageview completed; their ids follow one another in `goalIds`, pageview by pageview. */
  goals: Uint16Array;
  goalIds: Uint32Array;
  /** Its session's number within the day (one array type for every block keeps the scans' loops fast). */
  session: Uint32Array;
  /** Per session: its id in the sessions table, in ascending order. */
  sessionIds: Float64Array;
  /**
   * Per session: when it began (the sessions table's time, or its first pageview of the day when that is
   * earlier; 0 when the session is not known): before `day`, it goes on from an earlier day.
   */
  sessionStart: Uint32Array;
  /** Per session: its visitor, whether it bounced, whether it was the visitor's first visit. */
  sessionVisitor: Uint32Array;
  sessionBounce: Uint8Array;
  sessionFirstTime: Uint8Array;
  /** Per visitor: the hex key and the register of its hash (`prepareVisitor`). */
  visitorKeys: readonly string[];
  visitorRegisters: Uint32Array;
  columns: ReadonlyMap<string, BlockColumn>;
  /** Approximate memory held, for the cache. */
  bytes: number;
}

/** A fold of a day: when, and the pageviews it counted. */
export interface DayFold {
  foldedAt: number;
  pageviews: number;
}

/** A raw pageview as the block loader selects it (`goals`: comma-separated goal ids or null); `d<i>` is dimension `i`. */
export type BlockRow = Record<string, unknown>;

/** The smallest typed array that holds numbers below `limit`. */
function narrow(codes: ArrayLike<number>, limit: number): Codes {
  if (limit <= 0x100) return Uint8Array.from(codes);
  if (limit <= 0x10000) return Uint16Array.from(codes);
  return Uint32Array.from(codes);
}

/** Codes per session when each session has one code, else null. */
function perSession(codes: Uint32Array, session: Uint32Array, sessions: number): Uint32Array | null {
  const out = new Uint32Array(sessions).fill(0xffffffff);
  for (let i = 0; i < codes.length; i++) {
    const s = session[i]!;
    if (out[s] === 0xffffffff) out[s] = codes[i]!;
    else if (out[s] !== codes[i]) return null;
  }
  return out;
}

/** Numbers each distinct key in order of appearance. */
class Numbering<K> {
  readonly codes = new Map<K, number>();
  readonly keys: K[] = [];
  code(key: K): number {
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.keys.length;
      this.codes.set(key, code);
      this.keys.push(key);
    }
    return code;
  }
}

const stringOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/**
 * Encodes the pageviews of one day (`rows` ordered by session id, then time, as the block loader selects
 * them: sessions are numbered in that order) with the dimensions named in `dimensions` (column `d<i>`).
 */
export function buildDayBlock(siteId: number, day: number, fold: DayFold, rows: readonly BlockRow[], dimensions: readonly string[]): DayBlock {
  const n = rows.length;
  const time = new Uint32Array(n);
  const timeOnPage = new Float32Array(n);
  const notFound = new Uint8Array(n);
  const goals = new Uint16Array(n);
  const goalIds: number[] = [];
  const session = new Uint32Array(n);
  const sessionIds: number[] = [];
  const sessions = new Numbering<string>();
  const visitors = new Numbering<string>();
  const sessionVisitor: number[] = [];
  const sessionBounce: number[] = [];
  const sessionFirstTime: number[] = [];
  const sessionStart: number[] = [];
  const dims = dimensions.map(() => ({ numbering: new Numbering<string | null>(), codes: new Uint32Array(n) }));
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    time[i] = Number(row.time);
    timeOnPage[i] = Number(row.top ?? 0);
    notFound[i] = row.pt === '404' ? 1 : 0;
    if (row.goals !== null && row.goals !== undefined && row.goals !== '') {
      const ids = String(row.goals).split(',');
      for (const id of ids) goalIds.push(Number(id));
      goals[i] = ids.length;
    }
    const s = sessions.code(String(row.session_id));
    session[i] = s;
    if (s === sessionVisitor.length) {
      const id = Number(row.session_id);
      if (s > 0 && !(id > sessionIds[s - 1]!)) throw new Error('a day block\'s pageviews must come ordered by session id');
      sessionIds.push(id);
      sessionVisitor.push(visitors.code(String(row.uid)));
      sessionBounce.push(Number(row.bounce) === 1 ? 1 : 0);
      sessionFirstTime.push(Number(row.ft) === 1 ? 1 : 0);
      sessionStart.push(row.st === null || row.st === undefined ? 0 : Math.min(Number(row.st), time[i]!));
    }
    for (let d = 0; d < dims.length; d++) {
      const dim = dims[d]!;
      dim.codes[i] = dim.numbering.code(stringOrNull(row[`d${d}`]));
    }
  }
  const columns = new Map<string, BlockColumn>();
  dimensions.forEach((name, d) => {
    const { codes, numbering } = dims[d]!;
    const bySession = perSession(codes, session, sessionVisitor.length);
    columns.set(name, { codes: narrow(bySession ?? codes, numbering.keys.length), perSession: bySession !== null, values: numbering.keys });
  });
  const prepared = visitors.keys.map(prepareVisitor);
  const block: Omit<DayBlock, 'bytes'> = {
    siteId,
    day,
    fold,
    rows: n,
    firstTime: n ? time.reduce((a, b) => Math.min(a, b)) : day,
    lastTime: n ? time.reduce((a, b) => Math.max(a, b)) : day,
    time,
    timeOnPage,
    notFound,
    goals,
    goalIds: Uint32Array.from(goalIds),
    session,
    sessionIds: Float64Array.from(sessionIds),
    sessionVisitor: Uint32Array.from(sessionVisitor),
    sessionBounce: Uint8Array.from(sessionBounce),
    sessionFirstTime: Uint8Array.from(sessionFirstTime),
    sessionStart: Uint32Array.from(sessionStart),
    visitorKeys: prepared.map((v) => v.key),
    visitorRegisters: Uint32Array.from(prepared, (v) => v.register),
    columns,
  };
  return { ...block, bytes: blockBytes(block) };
}

/** Memory a block holds, about: its typed arrays, and its strings with their overhead. */
export function blockBytes(block: Omit<DayBlock, 'bytes'>): number {
  let bytes = block.visitorKeys.length * 40;
  for (const value of Object.values(block)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  for (const column of block.columns.values()) {
    bytes += column.codes.byteLength;
    for (const v of column.values) bytes += (v?.length ?? 0) + 24;
  }
  return bytes;
}
