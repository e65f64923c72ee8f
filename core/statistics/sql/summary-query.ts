import type { Database } from '../../db/database';
import type { Component } from '../metrics';
import type { StatusFilter } from '../types';
import { type Frag, frag, joinFrags } from './fragment';

/** Inclusive runs of consecutive folded days. */
export interface DayRun {
  first: number;
  last: number;
}

export interface SummarySelect {
  siteId: number;
  runs: readonly DayRun[];
  status: StatusFilter;
  /** Bucket index over `x.day`, aliased `gb`. */
  bucket: Frag | null;
  /** The one summarised dimension grouped (aliased `gd0`) or filtered. */
  dimension: { name: string; group: boolean; value: string | null } | null;
  components: readonly Component[];
  /** Lists rows with their visitor sketches (`vs`, `fs`, `cs`) and counters instead of aggregating (totals only). */
  sketches?: boolean;
  /** Reads the monthly roll-ups; `runs` then hold month starts. */
  months?: boolean;
}

const SKETCH_COLUMNS = 'x.visitor_sketch AS vs, x.first_time_sketch AS fs, x.converted_sketch AS cs';

function daysCondition(runs: readonly DayRun[]): Frag {
  return joinFrags(
    runs.map((r) => frag('(x.day >= ? AND x.day <= ?)', [r.first, r.last])),
    ' OR ',
  );
}

/** SELECT over `summary_days` (totals) or `summary_dims` (one dimension). */
export function buildSummarySelect(db: Database, sel: SummarySelect): Frag {
  const table = db.quote(db.table(`${sel.dimension ? 'summary_dims' : 'summary_days'}${sel.months ? '_month' : ''}`));
  const columns: Frag[] = [];
  const groups: string[] = [];
  if (sel.bucket) {
    columns.push(frag(`${sel.bucket.sql} AS gb`, sel.bucket.params));
    groups.push('gb');
  }
  if (sel.dimension?.group) {
    columns.push(frag('x.value AS gd0'));
    groups.push('gd0');
  }
  if (sel.sketches) columns.push(frag(SKETCH_COLUMNS));
  for (const c of sel.components) columns.push(frag(sel.sketches ? `x.${c} AS c_${c}` : `COALESCE(SUM(x.${c}), 0) AS c_${c}`));

  const days = daysCondition(sel.runs);
  const where: Frag[] = [frag('x.site_id = ?', [sel.siteId]), frag(`(${days.sql})`, days.params)];
  if (sel.status !== 'all') where.push(frag('x.status = ?', [sel.status === '404' ? 1 : 0]));
  if (sel.dimension) {
    where.push(frag('x.dimension = ?', [sel.dimension.name]));
    if (sel.dimension.value !== null) where.push(frag('x.value = ?', [sel.dimension.value]));
  }
  const select = joinFrags(columns, ', ');
  const conditions = joinFrags(where, ' AND ');
  const grouped = !sel.sketches && groups.length > 0 ? ` GROUP BY ${groups.join(', ')}` : '';
  return { sql: `SELECT ${select.sql} FROM ${table} x WHERE ${conditions.sql}${grouped}`, params: [...select.params, ...conditions.params] };
}

/**
 * SELECT listing the daily visitor sketches (`vs`, `fs`, `cs`) of one
 * dimension that keeps them (`summary_dim_sketches`), grouped by the bucket
 * and value as `buildSummarySelect` groups.
 */
export function buildDimSketchSelect(db: Database, sel: Pick<SummarySelect, 'siteId' | 'runs' | 'status' | 'bucket'> & { dimension: NonNullable<SummarySelect['dimension']> }): Frag {
  const columns: Frag[] = [];
  if (sel.bucket) columns.push(frag(`${sel.bucket.sql} AS gb`, sel.bucket.params));
  if (sel.dimension.group) columns.push(frag('x.value AS gd0'));
  columns.push(frag(SKETCH_COLUMNS));
  const days = daysCondition(sel.runs);
  const where: Frag[] = [frag('x.site_id = ?', [sel.siteId]), frag(`(${days.sql})`, days.params), frag('x.dimension = ?', [sel.dimension.name])];
  if (sel.status !== 'all') where.push(frag('x.status = ?', [sel.status === '404' ? 1 : 0]));
  if (sel.dimension.value !== null) where.push(frag('x.value = ?', [sel.dimension.value]));
  const select = joinFrags(columns, ', ');
  const conditions = joinFrags(where, ' AND ');
  return { sql: `SELECT ${select.sql} FROM ${db.quote(db.table('summary_dim_sketches'))} x WHERE ${conditions.sql}`, params: [...select.params, ...conditions.params] };
}
