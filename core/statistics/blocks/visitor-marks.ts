import { VisitorSketch } from '../sketch';
import { room, roomFor } from './typed-arrays';
import type { VisitorIndex } from './visitor-index';

/** Memory the lists of one scan may take by default; a group whose list would go beyond it counts its visitors in a sketch. */
const BUDGET_BYTES = 32 * 1024 * 1024;

/** Entries of a group's first list; each longer one is twice the last. */
const FIRST_LENGTH = 16;

/**
 * Distinct visitors per group of one scan, by their `VisitorIndex` numbers.
 * Each group lists the visitors marked in it as they come (one more entry per
 * mark: writing at the end of a few lists stays in the processor's cache,
 * where setting a bit in one of many bitsets as long as the index does not);
 * its sketch skips the repeated ones with one bitset shared by every group.
 * Past the memory budget a group counts its visitors in a sketch instead.
 */
export class VisitorMarks {
  /** Per group: the visitors marked, or null once the group counts them in a sketch. */
  private readonly lists: Array<Uint32Array | null> = [];
  private lengths = new Int32Array(64);
  private readonly sketches: VisitorSketch[] = [];
  /** One bit per visitor of the index, all clear between two `sketch` calls. */
  private seen = new Uint32Array(0);
  /** Work array listing one group's distinct visitors. */
  private members = new Uint32Array(0);
  private bytes = 0;

  constructor(
    private readonly index: VisitorIndex,
    private readonly budgetBytes = BUDGET_BYTES,
  ) {}

  add(group: number, visitor: number): void {
    const list = this.lists[group];
    if (list) {
      const n = this.lengths[group]!;
      if (n < list.length) {
        list[n] = visitor;
        this.lengths[group] = n + 1;
        return;
      }
    }
    this.addOutOfRoom(group, visitor);
  }

  /** The group's visitors as a sketch, or null when it has none. */
  sketch(group: number): VisitorSketch | null {
    const list = this.lists[group];
    if (list === undefined) return null;
    if (list === null) return this.sketches[group]!;
    const marked = this.lengths[group]!;
    const seen = (this.seen = room(this.seen, (this.index.size + 31) >>> 5, (n) => new Uint32Array(n)));
    const members = (this.members = room(this.members, marked, (n) => new Uint32Array(n)));
    let count = 0;
    for (let k = 0; k < marked; k++) {
      const v = list[k]!;
      const bit = 1 << (v & 31);
      if ((seen[v >>> 5]! & bit) === 0) {
        seen[v >>> 5]! |= bit;
        members[count++] = v;
      }
    }
    for (let k = 0; k < count; k++) seen[members[k]! >>> 5] = 0;
    return VisitorSketch.ofPrepared(members, count, this.index.keys, this.index.registers);
  }

  /** A mark for a group without a list, with a full one or counting in a sketch. */
  private addOutOfRoom(group: number, visitor: number): void {
    const list = this.lists[group];
    if (list === null) {
      this.sketches[group]!.addPrepared(this.index.keys[visitor]!, this.index.registers[visitor]!);
      return;
    }
    const old = list ?? new Uint32Array(0);
    const length = Math.max(FIRST_LENGTH, old.length * 2);
    if (this.bytes + (length - old.length) * 4 > this.budgetBytes) {
      const sketch = (this.sketches[group] = new VisitorSketch());
      for (let k = 0; k < old.length; k++) sketch.addPrepared(this.index.keys[old[k]!]!, this.index.registers[old[k]!]!);
      this.lists[group] = null;
      this.bytes -= old.byteLength;
      sketch.addPrepared(this.index.keys[visitor]!, this.index.registers[visitor]!);
      return;
    }
    const grown = new Uint32Array(length);
    grown.set(old);
    grown[old.length] = visitor;
    this.lists[group] = grown;
    this.bytes += (length - old.length) * 4;
    this.lengths = roomFor(this.lengths, group, (n) => new Int32Array(n));
    this.lengths[group] = old.length + 1;
  }
}
