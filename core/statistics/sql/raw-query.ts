import type { Database } from '../../db/database';
import type { Catalog } from '../catalog';
import { type Component, SESSION_COMPONENTS, componentSql, convertedSql } from '../metrics';
import { isPlainFilter, type StatsFilter, type StatusFilter, type TimeRange } from '../types';
import { filterCondition, rowsCondition } from './filter-condition';
import { type Frag, frag, joinFrags, rangesCondition } from './fragment';

/** A grouping column of a query: its SQL, the joins it needs and its result alias. */
export interface Group {
  alias: string;
  expr: Frag;
  joins: readonly string[];
}

export interface RawSelect {
  siteId: number;
  ranges: readonly TimeRange[];
  status: StatusFilter;
  filters: readonly StatsFilter[];
  groups: readonly Group[];
  /** Aggregated as `c_<component>`. */
  components: readonly Component[];
  /** Lists each group's distinct visitors (`uid`, first-time flag `ft`, converted flag `cv`) instead of aggregating. */
  visitorList?: boolean;
}

export function statusCondition(status: StatusFilter): string | null {
  if (status === '404') return "s.page_type = '404'";
  if (status === '200') return "s.page_type <> '404'";
  return null;
}

export interface RawSource {
  siteId: number;
  ranges: readonly TimeRange[];
  status: StatusFilter;
  filters: readonly StatsFilter[];
}

/** `FROM` the site's raw pageviews (`s`) with the joins `joins` and the filters need, `WHERE` in the ranges, status and filters. */
export function rawFrom(db: Database, catalog: Catalog, src: RawSource, joins: Set<string> = new Set()): Frag {
  const filterDims = src.filters.map((f) => {
    const dim = catalog.dimension(f.dimension);
    return { dim, filter: f, rows: dim.rows && !isPlainFilter(f) ? dim.rows : null };
  });
  for (const f of filterDims) if (!f.rows) for (const j of f.dim.joins) joins.add(j);
  const ranges = rangesCondition('s.time', src.ranges);
  const where: Frag[] = [frag('s.site_id = ?', [src.siteId]), frag(`(${ranges.sql})`, ranges.params)];
  const status = statusCondition(src.status);
  if (status) where.push(frag(status));
  for (const f of filterDims) where.push(f.rows ? rowsCondition(db.quote(db.table(f.rows.table)), f.rows, f.filter) : filterCondition(f.dim.expr, f.filter));
  const conditions = joinFrags(where, ' AND ');
  return frag(`FROM ${db.quote(db.table('statistics'))} s ${catalog.joinSql(db, joins)} WHERE ${conditions.sql}`, conditions.params);
}

/** SELECT over raw pageviews (`s`) and whatever the groups, filters and components join. */
export function buildRawSelect(db: Database, catalog: Catalog, sel: RawSelect): Frag {
  const joins = new Set<string>(sel.groups.flatMap((g) => g.joins));
  if (sel.visitorList || sel.components.some((c) => SESSION_COMPONENTS.has(c))) joins.add('session');
  // Adds the filters' joins to `joins` before the goal join is looked up.
  const from = rawFrom(db, catalog, sel, joins);
  const goalJoined = joins.has('goal');
  const goalTable = db.quote(db.table('goal_statistics'));

  const columns: Frag[] = sel.groups.map((g) => frag(`${g.expr.sql} AS ${g.alias}`, g.expr.params));
  if (sel.visitorList) {
    columns.push(
      frag('s.uid AS uid'),
      frag('MAX(CASE WHEN ses.first_time_visit = 1 THEN 1 ELSE 0 END) AS ft'),
      frag(`MAX(${convertedSql(goalJoined, goalTable)}) AS cv`),
    );
  } else {
    for (const c of sel.components) columns.push(frag(`${componentSql(c, goalJoined, goalTable)} AS c_${c}`));
  }

  const groupBy = [...sel.groups.map((g) => g.alias), ...(sel.visitorList ? ['s.uid'] : [])];
  const select = joinFrags(columns, ', ');
  const sql = `SELECT ${select.sql} ${from.sql}` + (groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '');
  return { sql, params: [...select.params, ...from.params] };
}
