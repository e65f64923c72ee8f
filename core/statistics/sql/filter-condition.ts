import type { DimensionDef } from '../dimensions';
import { type FilterOperator, filterValues, type StatsFilter } from '../types';
import { type Frag, frag, joinFrags } from './fragment';

/** The escape character of `LIKE` patterns: `!` reads the same on SQLite and MariaDB (a backslash does not). */
const ESCAPE = '!';

/** `%value%` with the value's own `%`, `_` and escape character matched literally. */
export const containsPattern = (value: string): string => `%${value.replace(/[!%_]/g, (c) => ESCAPE + c)}%`;

/**
 * The WHERE condition of one filter over the SQL expression `expr`. Several
 * values match when any does (`is`, `contains`) or when none does (`is_not`,
 * `not_contains`); a row without a value (NULL) is one that is not, and does
 * not contain, any of them. `LIKE` is case-insensitive on both databases for
 * ASCII letters.
 */
export function filterCondition(expr: string, filter: StatsFilter): Frag {
  const values = filterValues(filter);
  const marks = values.map(() => '?').join(', ');
  switch (filter.operator ?? 'is') {
    case 'is':
      return values.length === 1 ? frag(`${expr} = ?`, [values[0]]) : frag(`${expr} IN (${marks})`, [...values]);
    case 'is_not':
      return frag(`(${expr} IS NULL OR ${expr} NOT IN (${marks}))`, [...values]);
    case 'contains': {
      const any = joinFrags(values.map((v) => frag(`${expr} LIKE ? ESCAPE '${ESCAPE}'`, [containsPattern(v)])), ' OR ');
      return frag(`(${any.sql})`, any.params);
    }
    case 'not_contains': {
      const none = joinFrags(values.map((v) => frag(`${expr} NOT LIKE ? ESCAPE '${ESCAPE}'`, [containsPattern(v)])), ' AND ');
      return frag(`(${expr} IS NULL OR (${none.sql}))`, none.params);
    }
  }
}

const POSITIVE: Partial<Record<FilterOperator, FilterOperator>> = { is_not: 'is', not_contains: 'contains' };

/** The condition of a filter on a dimension kept in rows of `table` (`DimensionDef.rows`) over the pageview `s`. */
export function rowsCondition(table: string, rows: NonNullable<DimensionDef['rows']>, filter: StatsFilter): Frag {
  const operator = filter.operator ?? 'is';
  const match = filterCondition(`fr.${rows.column}`, { ...filter, operator: POSITIVE[operator] ?? operator });
  return frag(`${POSITIVE[operator] ? 'NOT ' : ''}EXISTS (SELECT 1 FROM ${table} fr WHERE fr.${rows.key} = s.ID AND ${match.sql})`, match.params);
}
