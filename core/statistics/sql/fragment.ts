/** A piece of SQL with its positional `?` replacements, kept together so order cannot drift. */
export interface Frag {
  sql: string;
  params: unknown[];
}

export const frag = (sql: string, params: unknown[] = []): Frag => ({ sql, params });

/** Joins fragments with `separator`, concatenating their replacements in order. */
export function joinFrags(parts: readonly Frag[], separator: string): Frag {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/**
 * The index of the bucket holding `column`, as a balanced nested CASE over
 * the bucket edges (log2(n) comparisons per row). Edges come from the site
 * calendar, so daylight-saving days and months of any length bucket exactly.
 */
export function bucketCase(column: string, edges: readonly number[]): Frag {
  const build = (lo: number, hi: number): Frag => {
    if (lo === hi) return frag(String(lo));
    const mid = (lo + hi + 1) >> 1;
    const left = build(lo, mid - 1);
    const right = build(mid, hi);
    return frag(`CASE WHEN ${column} < ? THEN ${left.sql} ELSE ${right.sql} END`, [edges[mid], ...left.params, ...right.params]);
  };
  return build(0, Math.max(0, edges.length - 2));
}

/** `(column >= ? AND column < ?) OR ...` for half-open intervals. */
export function rangesCondition(column: string, ranges: ReadonlyArray<{ start: number; end: number }>): Frag {
  if (ranges.length === 0) return frag('1 = 0');
  return joinFrags(
    ranges.map((r) => frag(`(${column} >= ? AND ${column} < ?)`, [r.start, r.end])),
    ' OR ',
  );
}
