import { createHash } from 'node:crypto';

const P = 12;
const REGISTERS = 1 << P;
/** Up to this many visitors a sketch keeps every hash and counts exactly. */
const SPARSE_LIMIT = 512;
const SPARSE = 1;
/** 2^-rank for every rank a register can hold. */
const INVERSE_POWERS = Float64Array.from({ length: 66 }, (_, rank) => 2 ** -rank);
const DENSE = 2;

function hashOf(uid: string): Buffer {
  return createHash('md5').update(uid).digest().subarray(0, 8);
}

/** The register a 64-bit hash sets: its index << 8 | its rank. */
function register(hash: Buffer): number {
  const hi = hash.readUInt32BE(0);
  const lo = hash.readUInt32BE(4);
  const rest = (hi << P) >>> 0;
  const rank = rest !== 0 ? Math.clz32(rest) + 1 : 32 - P + Math.clz32(lo) + 1;
  return ((hi >>> (32 - P)) << 8) | rank;
}

/**
 * A visitor's hash worked out once, for adding the same visitor to many
 * sketches (the day blocks): its hex form and its register.
 */
export function prepareVisitor(uid: string): { key: string; register: number } {
  const hash = hashOf(uid);
  return { key: hash.toString('hex'), register: register(hash) };
}

/**
 * A distinct-visitor counter that merges across days: exact (a set of 64-bit
 * hashes) up to 512 visitors, a HyperLogLog with 4,096 registers (about 1.6 %
 * standard error) beyond. Daily summaries store one per day so visitors of any
 * range are counted without reading raw hits.
 */
export class VisitorSketch {
  /** Exact form: each hash (hex) with its register. */
  private sparse: Map<string, number> | null = new Map();
  private dense: Uint8Array | null = null;

  add(uid: string): void {
    const hash = hashOf(uid);
    this.addPrepared(hash.toString('hex'), register(hash));
  }

  /** Adds a visitor by its `prepareVisitor` key and register. */
  addPrepared(key: string, reg: number): void {
    if (this.sparse) {
      if (this.sparse.has(key)) return;
      this.sparse.set(key, reg);
      if (this.sparse.size > SPARSE_LIMIT) this.toDense();
      return;
    }
    this.setRegister(reg);
  }

  merge(other: VisitorSketch): void {
    if (other.sparse) {
      for (const [key, reg] of other.sparse) this.addPrepared(key, reg);
      return;
    }
    const mine = this.toDense();
    const theirs = other.dense!;
    for (let i = 0; i < REGISTERS; i++) if (theirs[i]! > mine[i]!) mine[i] = theirs[i]!;
  }

  count(): number {
    if (this.sparse) return this.sparse.size;
    const registers = this.dense!;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < REGISTERS; i++) {
      sum += INVERSE_POWERS[registers[i]!]!;
      if (registers[i] === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / REGISTERS);
    const raw = (alpha * REGISTERS * REGISTERS) / sum;
    if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
    return Math.round(raw);
  }

  toBuffer(): Buffer {
    if (this.sparse) return Buffer.concat([Buffer.from([SPARSE]), ...[...this.sparse.keys()].map((key) => Buffer.from(key, 'hex'))]);
    return Buffer.concat([Buffer.from([DENSE]), this.dense!]);
  }

  /** The sketch of the first `count` visitors of `members` (indexes into `keys` and `registers`, each once), as adding them one by one would make it. */
  static ofPrepared(members: ArrayLike<number>, count: number, keys: readonly string[], registers: ArrayLike<number>): VisitorSketch {
    const sketch = new VisitorSketch();
    if (count <= SPARSE_LIMIT) {
      for (let k = 0; k < count; k++) sketch.addPrepared(keys[members[k]!]!, registers[members[k]!]!);
      return sketch;
    }
    sketch.sparse = null;
    sketch.dense = new Uint8Array(REGISTERS);
    for (let k = 0; k < count; k++) sketch.setRegister(registers[members[k]!]!);
    return sketch;
  }

  static from(data: Buffer | Uint8Array | string | null | undefined): VisitorSketch {
    const sketch = new VisitorSketch();
    if (!data || data.length === 0) return sketch;
    const buf = typeof data === 'string' ? Buffer.from(data, 'binary') : Buffer.from(data);
    if (buf[0] === DENSE && buf.length === REGISTERS + 1) {
      sketch.sparse = null;
      sketch.dense = new Uint8Array(buf.subarray(1));
    } else if (buf[0] === SPARSE && (buf.length - 1) % 8 === 0) {
      for (let at = 1; at < buf.length; at += 8) {
        const hash = buf.subarray(at, at + 8);
        sketch.addPrepared(hash.toString('hex'), register(hash));
      }
    } else {
      throw new Error('not a visitor sketch');
    }
    return sketch;
  }

  private setRegister(reg: number): void {
    const index = reg >>> 8;
    const rank = reg & 0xff;
    if (rank > this.dense![index]!) this.dense![index] = rank;
  }

  private toDense(): Uint8Array {
    if (this.dense) return this.dense;
    const registers = [...this.sparse!.values()];
    this.sparse = null;
    this.dense = new Uint8Array(REGISTERS);
    for (const reg of registers) this.setRegister(reg);
    return this.dense;
  }
}
