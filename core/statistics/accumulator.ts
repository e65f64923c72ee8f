import { ADDITIVE, type Component, type Components, emptyComponents } from './metrics';
import { VisitorSketch } from './sketch';

/** The distinct components, each counted with a sketch: every visitor, first-time visitors, visitors who completed a goal. */
interface Sketches {
  visitors: VisitorSketch | null;
  firstTime: VisitorSketch | null;
  converted: VisitorSketch | null;
}

/** One group's keys, additive components and distinct-visitor sketches. */
export interface AccumulatorGroup extends Sketches {
  keys: Array<string | number>;
  components: Components;
}

type SqlRow = Record<string, unknown>;

/** Collects component values per group from raw and summary queries and merges them. */
export class Accumulator {
  private readonly entries = new Map<string, AccumulatorGroup>();

  constructor(private readonly aliases: readonly string[]) {}

  private entry(row: SqlRow): AccumulatorGroup {
    return this.group(this.aliases.map((a) => (a === 'gb' ? Number(row[a]) : String(row[a] ?? ''))));
  }

  /** The group of `keys` (in the order of the aliases: a bucket's index, dimension values as strings), made when new. */
  group(keys: Array<string | number>): AccumulatorGroup {
    // One type per position (a bucket's index, then dimension values): joined with a separator no value holds.
    const id = keys.join('\u0000');
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { keys, components: emptyComponents(), visitors: null, firstTime: null, converted: null };
      this.entries.set(id, entry);
    }
    return entry;
  }

  /** Every group as collected, sketches unresolved. */
  groups(): AccumulatorGroup[] {
    return [...this.entries.values()];
  }

  /** Adds `c_<component>` columns. */
  addCounts(rows: readonly SqlRow[], components: readonly Component[]): void {
    for (const row of rows) {
      const entry = this.entry(row);
      for (const c of components) entry.components[c] += Number(row[`c_${c}`] ?? 0);
    }
  }

  /** Adds distinct visitors listed one per row (`uid`, first-time flag `ft`, converted flag `cv`). */
  addVisitors(rows: readonly SqlRow[]): void {
    for (const row of rows) {
      const entry = this.entry(row);
      const uid = String(row.uid);
      (entry.visitors ??= new VisitorSketch()).add(uid);
      if (Number(row.ft) === 1) (entry.firstTime ??= new VisitorSketch()).add(uid);
      if (Number(row.cv) === 1) (entry.converted ??= new VisitorSketch()).add(uid);
    }
  }

  /** Merges stored sketches (`vs`, `fs`, `cs`). */
  addSketches(rows: readonly SqlRow[]): void {
    for (const row of rows) {
      const entry = this.entry(row);
      (entry.visitors ??= new VisitorSketch()).merge(VisitorSketch.from(row.vs as Buffer | null));
      (entry.firstTime ??= new VisitorSketch()).merge(VisitorSketch.from(row.fs as Buffer | null));
      (entry.converted ??= new VisitorSketch()).merge(VisitorSketch.from(row.cs as Buffer | null));
    }
  }

  /** Every group with its components; sketched distinct counts are resolved here. */
  results(): Array<{ keys: Array<string | number>; components: Components }> {
    return [...this.entries.values()].map((e) => {
      const components = { ...e.components };
      if (e.visitors) components.visitors = e.visitors.count();
      if (e.firstTime) components.first_time_visitors = e.firstTime.count();
      if (e.converted) components.converted_visitors = e.converted.count();
      return { keys: e.keys, components };
    });
  }
}

export const isAdditive = (c: Component) => ADDITIVE.includes(c);
