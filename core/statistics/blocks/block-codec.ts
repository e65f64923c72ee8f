import { type BlockColumn, type DayBlock, type DayFold, blockBytes } from './day-block';

type Kind = 'u8' | 'u16' | 'u32' | 'f32' | 'f64';
type Typed = Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;

const KINDS: Record<Kind, { of: (buffer: ArrayBuffer) => Typed; bytes: number }> = {
  u8: { of: (b) => new Uint8Array(b), bytes: 1 },
  u16: { of: (b) => new Uint16Array(b), bytes: 2 },
  u32: { of: (b) => new Uint32Array(b), bytes: 4 },
  f32: { of: (b) => new Float32Array(b), bytes: 4 },
  f64: { of: (b) => new Float64Array(b), bytes: 8 },
};

function kindOf(array: Typed): Kind {
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Uint32Array) return 'u32';
  if (array instanceof Float32Array) return 'f32';
  return 'f64';
}

/** The block's fields stored as typed arrays, in the order they are written. */
const ARRAYS = ['time', 'timeOnPage', 'notFound', 'goals', 'goalIds', 'session', 'sessionIds', 'sessionVisitor', 'sessionBounce', 'sessionFirstTime', 'sessionStart', 'visitorRegisters'] as const;

/** The format `encodeBlock` writes; a block of an earlier one is read anew from raw hits. */
const VERSION = 2;

interface Header {
  version: number;
  rows: number;
  firstTime: number;
  lastTime: number;
  fold: DayFold;
  arrays: Array<{ kind: Kind; length: number }>;
  columns: Array<{ name: string; perSession: boolean; kind: Kind; length: number; values: Array<string | null> }>;
}

/**
 * A day block as bytes, for `summary_blocks`: a length-prefixed JSON header
 * (sizes, fold, each column's distinct values), then every typed array and
 * the visitors' 8-byte hashes one after another.
 */
export function encodeBlock(block: DayBlock): Buffer {
  const arrays: Typed[] = ARRAYS.map((name) => block[name]);
  const columns = [...block.columns].map(([name, c]) => ({ name, perSession: c.perSession, kind: kindOf(c.codes), length: c.codes.length, values: [...c.values] }));
  const header: Header = {
    version: VERSION,
    rows: block.rows,
    firstTime: block.firstTime,
    lastTime: block.lastTime,
    fold: block.fold,
    arrays: arrays.map((a) => ({ kind: kindOf(a), length: a.length })),
    columns,
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const bytes = (a: Typed) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return Buffer.concat([length, json, ...arrays.map(bytes), ...[...block.columns.values()].map((c) => bytes(c.codes)), Buffer.from(block.visitorKeys.join(''), 'hex')]);
}

/** The block `encodeBlock` wrote, for the site and day it was stored under; null when an earlier release wrote it in an earlier format. */
export function decodeBlock(siteId: number, day: number, data: Buffer): DayBlock | null {
  const headerLength = data.readUInt32LE(0);
  const header = JSON.parse(data.subarray(4, 4 + headerLength).toString()) as Header;
  if (header.version < VERSION) return null;
  if (header.version !== VERSION) throw new Error(`day block format ${String(header.version)} is not known`);
  let at = 4 + headerLength;
  const take = (kind: Kind, length: number): Typed => {
    const size = length * KINDS[kind].bytes;
    const copy = new Uint8Array(size);
    copy.set(data.subarray(at, at + size));
    at += size;
    return KINDS[kind].of(copy.buffer);
  };
  const arrays = header.arrays.map((a) => take(a.kind, a.length));
  const field = <T extends Typed>(name: (typeof ARRAYS)[number]) => arrays[ARRAYS.indexOf(name)] as T;
  const columns = new Map<string, BlockColumn>();
  for (const c of header.columns) columns.set(c.name, { codes: take(c.kind, c.length) as BlockColumn['codes'], perSession: c.perSession, values: c.values });
  const hashes = data.subarray(at);
  const visitorKeys: string[] = [];
  for (let i = 0; i + 8 <= hashes.length; i += 8) visitorKeys.push(hashes.toString('hex', i, i + 8));
  const block: Omit<DayBlock, 'bytes'> = {
    siteId,
    day,
    fold: header.fold,
    rows: header.rows,
    firstTime: header.firstTime,
    lastTime: header.lastTime,
    time: field('time'),
    timeOnPage: field('timeOnPage'),
    notFound: field('notFound'),
    goals: field('goals'),
    goalIds: field('goalIds'),
    session: field('session'),
    sessionIds: field('sessionIds'),
    sessionVisitor: field('sessionVisitor'),
    sessionBounce: field('sessionBounce'),
    sessionFirstTime: field('sessionFirstTime'),
    sessionStart: field('sessionStart'),
    visitorKeys,
    visitorRegisters: field('visitorRegisters'),
    columns,
  };
  return { ...block, bytes: blockBytes(block) };
}
