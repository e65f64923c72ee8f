import { VisitorSketch } from '../sketch';
import { room } from './typed-arrays';
import type { VisitorIndex } from './visitor-index';

/** Memory the bitsets of one scan may take by default; groups beyond it count their visitors in sketches. */
const BUDGET_BYTES = 32 * 1024 * 1024;

/**
 * Distinct visitors per group of one scan, by their `VisitorIndex` numbers: a
 * bitset per group while the budget allows (a bit set per visitor), a sketch
 * for the groups beyond it. Number every block before the first `add`: the
 * bitsets are as long as the index was then.
 */
export class VisitorBits {
  private readonly bits: Array<Uint32Array | null> = [];
  private readonly sketches: Array<VisitorSketch | null> = [];
  /** Work array listing one group's visitors: at most every visitor of the index. */
  private members = new Uint32Array(0);
  private readonly words: number;
  private bytes = 0;

  constructor(
    private readonly index: VisitorIndex,
    private readonly budgetBytes = BUDGET_BYTES,
  ) {
    this.words = (index.size + 31) >>> 5;
  }

  add(group: number, visitor: number): void {
    let bits = this.bits[group];
    if (bits === undefined) bits = this.open(group);
    if (bits !== null) bits[visitor >>> 5]! |= 1 << (visitor & 31);
    else this.sketches[group]!.addPrepared(this.index.keys[visitor]!, this.index.registers[visitor]!);
  }

  /** The group's visitors as a sketch, or null when it has none. */
  sketch(group: number): VisitorSketch | null {
    const bits = this.bits[group];
    if (bits === undefined) return null;
    if (bits === null) return this.sketches[group]!;
    const members = (this.members = room(this.members, this.words * 32, (n) => new Uint32Array(n)));
    let n = 0;
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!;
      while (word !== 0) {
        const low = word & -word;
        members[n++] = w * 32 + 31 - Math.clz32(low);
        word ^= low;
      }
    }
    return VisitorSketch.ofPrepared(members, n, this.index.keys, this.index.registers);
  }

  private open(group: number): Uint32Array | null {
    if (this.bytes + this.words * 4 <= this.budgetBytes) {
      this.bytes += this.words * 4;
      this.bits[group] = new Uint32Array(this.words);
      this.sketches[group] = null;
    } else {
      this.bits[group] = null;
      this.sketches[group] = new VisitorSketch();
    }
    return this.bits[group]!;
  }
}
