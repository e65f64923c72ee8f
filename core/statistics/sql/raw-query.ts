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

/** SELECT over raw pageviews (`s`) and whatever the groups, filters and components join. */
export function buildRawSelect(db: Database, catalog: Catalog, sel: RawSelect): Frag {
  const joins = new Set<string>(sel.groups.flatMap((g) => g.joins));
  const filterDims = sel.filters.map((f) => {
    const dim = catalog.dimension(f.dimension);
    return { dim, filter: f, rows: dim.rows && !isPlainFilter(f) ? dim.rows : null };
  });
  for (const f of filterDims) if (!f.rows) for (const j of f.dim.joins) joins.add(j);
  if (sel.visitorList || sel.components.some((c) => SESSION_COMPONENTS.has(c))) joins.add('session');
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

  const ranges = rangesCondition('s.time', sel.ranges);
  const where: Frag[] = [frag('s.site_id = ?', [sel.siteId]), frag(`(${ranges.sql})`, ranges.params)];
  const status = statusCondition(sel.status);
  if (status) where.push(frag(status));
  for (const f of filterDims) where.push(f.rows ? rowsCondition(db.quote(db.table(f.rows.table)), f.rows, f.filter) : filterCondition(f.dim.expr, f.filter));

  const groupBy = [...sel.groups.map((g) => g.alias), ...(sel.visitorList ? ['s.uid'] : [])];
  const select = joinFrags(columns, ', ');
  const conditions = joinFrags(where, ' AND ');
  const sql =
    `SELECT ${select.sql} FROM ${db.quote(db.table('statistics'))} s ${catalog.joinSql(db, joins)} WHERE ${conditions.sql}` +
    (groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '');
  return { sql, params: [...select.params, ...conditions.params] };
}
