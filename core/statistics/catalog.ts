import type { Database } from '../db/database';
import { badRequest } from '../errors';
import { CORE_DIMENSIONS, CORE_JOINS, type DimensionDef, type JoinDef } from './dimensions';

/** Dimensions and joins known to the engine; plugins add theirs through `ctx.statistics`. */
export class Catalog {
  private readonly dimensions = new Map<string, DimensionDef>();
  private readonly aliases = new Map<string, string>();
  private readonly joins = new Map<string, JoinDef>();

  constructor() {
    for (const join of CORE_JOINS) this.addJoin(join);
    for (const dimension of CORE_DIMENSIONS) this.addDimension({ settled: true, ...dimension });
  }

  addJoin(join: JoinDef): void {
    if (this.joins.has(join.id)) throw new Error(`statistics join ${join.id} is registered twice`);
    this.joins.set(join.id, join);
  }

  addDimension(dimension: DimensionDef): void {
    if (!/^[a-z][a-z0-9_]*$/.test(dimension.name)) throw new Error(`invalid dimension name ${dimension.name}`);
    if (this.dimensions.has(dimension.name) || this.aliases.has(dimension.name)) {
      throw new Error(`statistics dimension ${dimension.name} is registered twice`);
    }
    for (const join of dimension.joins) if (!this.joins.has(join)) throw new Error(`dimension ${dimension.name} needs unknown join ${join}`);
    this.dimensions.set(dimension.name, dimension);
    for (const alias of dimension.aliases ?? []) this.aliases.set(alias, dimension.name);
  }

  /** The canonical name of a dimension or one of its aliases, or null. */
  canonical(name: string): string | null {
    if (this.dimensions.has(name)) return name;
    return this.aliases.get(name) ?? null;
  }

  dimension(name: string): DimensionDef {
    const found = this.dimensions.get(this.canonical(name) ?? '');
    if (!found) throw badRequest(`Unknown dimension: ${name.slice(0, 60)}.`, 'svc_invalid_dimension');
    return found;
  }

  names(): string[] {
    return [...this.dimensions.keys()];
  }

  /** JOIN clauses for `ids` and what they depend on, dependencies first. */
  joinSql(db: Database, ids: Iterable<string>): string {
    const ordered: JoinDef[] = [];
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      const join = this.joins.get(id);
      if (!join) throw new Error(`unknown statistics join ${id}`);
      for (const dep of join.after ?? []) visit(dep);
      ordered.push(join);
    };
    for (const id of ids) visit(id);
    return ordered.map((j) => j.sql(db)).join(' ');
  }
}
