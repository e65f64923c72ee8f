import type { DayBlock } from './day-block';
import { roomFor } from './typed-arrays';

/**
 * Numbers the visitors of one site's day blocks across days, so a scan marks
 * each group's distinct visitors in a bitset instead of a set of hashes. A
 * block's numbers are worked out once per index (a lookup per visitor of the
 * day) and kept while the block lives.
 */
export class VisitorIndex {
  private readonly ids = new Map<string, number>();
  /** Per number: the visitor's hash key and register (`prepareVisitor`). */
  readonly keys: string[] = [];
  registers = new Uint32Array(1024);
  private readonly numbered = new WeakMap<DayBlock, Uint32Array>();

  get size(): number {
    return this.keys.length;
  }

  /** The number of the visitor of hash key `key` and register `register` (`prepareVisitor`), given when first met. */
  number(key: string, register: number): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.registers = roomFor(this.registers, id, (n) => new Uint32Array(n));
      this.registers[id] = register;
    }
    return id;
  }

  /** The index's number of each of the block's visitors, by the block's own numbering. */
  numbers(block: DayBlock): Uint32Array {
    const known = this.numbered.get(block);
    if (known) return known;
    const out = new Uint32Array(block.visitorKeys.length);
    block.visitorKeys.forEach((key, v) => (out[v] = this.number(key, block.visitorRegisters[v]!)));
    this.numbered.set(block, out);
    return out;
  }
}
