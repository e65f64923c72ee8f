import { DateTime } from 'luxon';
import { badRequest } from '../errors';
import { isoDay, parseDay, previousPeriod, rangeOfDays } from './dates';
import { FILTER_OPERATORS, type FilterOperator, type StatsFilter, type StatusFilter, type TimeRange } from './types';

/** What one data type or datatable accepts; everything else is dropped or refused. */
export interface AllowList {
  metrics: readonly string[];
  defaultMetrics: readonly string[];
  groupBy: readonly string[];
  defaultGroupBy: readonly string[];
  /** Dimensions that may be filtered on (the virtual `status` filter is always accepted). */
  filters: readonly string[];
  /** Rows returned when the request names no `limit`. */
  defaultLimit?: number;
  /** Filters may name an operator and several values (routes answered by the statistics engine); default only `is` one value. */
  operators?: boolean;
}

/** The parameters of ecommerce.md §4.1, validated. */
export interface DataRequest {
  /** The IANA zone the dates were read in (the site's). */
  timezone: string;
  dateStart: string;
  dateEnd: string;
  range: TimeRange;
  previous: TimeRange;
  metrics: string[];
  groupBy: string[];
  filters: StatsFilter[];
  status: StatusFilter;
  limit: number;
}

export interface ParseContext {
  timezone: string;
  now: number;
  /** The canonical dimension name for a requested filter key (aliases such as `utm_source`), or null. */
  canonical(name: string): string | null;
}

const MAX_DAYS = 3660;
const MAX_LIMIT = 1000;
const MAX_VALUE = 255;
const MAX_VALUES = 20;
const STATUSES: readonly StatusFilter[] = ['404', '200', 'all'];

/** An array, a JSON array string or a comma-separated string of names. */
export function nameList(raw: unknown, field: string): string[] | null {
  if (raw === undefined || raw === null || raw === '') return null;
  let value = raw;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest(`${field} is not valid JSON.`, 'svc_invalid_param', { field });
    }
  }
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!items || items.some((i) => typeof i !== 'string')) throw badRequest(`${field} must be a list of names.`, 'svc_invalid_param', { field });
  return (items as string[]).map((i) => i.trim()).filter(Boolean);
}

/** One filter as written: its key, the value (text, number or list) and the operator when one was named. */
interface FilterEntry {
  key: string;
  value: unknown;
  operator?: unknown;
}

const invalid = (message: string) => badRequest(message, 'svc_invalid_filter', { field: 'filters' });

/** `{ key, value, operator }` (array items) or `{ value, operator }` (values of the object form). */
function entryOf(key: string, spec: object): FilterEntry {
  const { value, operator } = spec as { value?: unknown; operator?: unknown };
  return { key, value, operator };
}

function filterEntries(raw: unknown): FilterEntry[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('[') || text.startsWith('{')) {
      try {
        return filterEntries(JSON.parse(text));
      } catch (err) {
        if (err instanceof SyntaxError) throw invalid('filters is not valid JSON.');
        throw err;
      }
    }
    return text.split(',').filter((p) => p.trim()).map(pairOf);
  }
  if (Array.isArray(raw)) {
    return raw.map((item): FilterEntry => {
      if (typeof item === 'string') return pairOf(item);
      if (item && typeof item === 'object' && typeof (item as { key?: unknown }).key === 'string') return entryOf((item as { key: string }).key, item as object);
      throw invalid('Each filter must be {key, value}, {key, value, operator} or "key:value".');
    });
  }
  if (typeof raw === 'object') {
    return Object.entries(raw as Record<string, unknown>).map(([key, value]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return { key, value };
      if (!('value' in value)) throw invalid(`Filter ${key.slice(0, 60)} must be a text value or {operator, value}.`);
      return entryOf(key, value);
    });
  }
  throw invalid('filters must be an array, a JSON string or a comma-separated string.');
}

function pairOf(text: string): FilterEntry {
  const at = text.indexOf(':');
  if (at <= 0) throw invalid(`Filter "${text.slice(0, 60)}" must be written key:value.`);
  return { key: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}

function operatorOf(entry: FilterEntry): FilterOperator {
  if (entry.operator === undefined || entry.operator === null || entry.operator === '') return 'is';
  if (typeof entry.operator === 'string' && (FILTER_OPERATORS as readonly string[]).includes(entry.operator)) return entry.operator as FilterOperator;
  throw invalid(`Filter ${entry.key.slice(0, 60)}: operator must be one of ${FILTER_OPERATORS.join(', ')}.`);
}

/** The non-empty values of a filter, without repeats: one text (or number) or a list of them. */
function valuesOf(entry: FilterEntry): string[] {
  const name = entry.key.slice(0, 60);
  const items = Array.isArray(entry.value) ? (entry.value as unknown[]) : [entry.value];
  if (items.length > MAX_VALUES) throw invalid(`Filter ${name} has more than ${MAX_VALUES} values.`);
  const values = items.map((item) => {
    if (item !== null && typeof item === 'object') throw invalid(`Filter ${name} must have a text value or a list of text values.`);
    const value = item === undefined || item === null ? '' : String(item);
    if (value.length > MAX_VALUE) throw invalid(`Filter ${name} is longer than ${MAX_VALUE} characters.`);
    return value;
  });
  return [...new Set(values.filter((v) => v !== ''))];
}

/**
 * Filters in the three forms of §4.1 (each meaning `is`), and the extended
 * form with an operator and several values, checked against `allowed`; the
 * status filter is split out. Where `operators` is false (routes whose
 * queries compare plain values), only `is` with one value is accepted.
 */
export function parseFilters(
  raw: unknown,
  allowed: readonly string[],
  ctx: Pick<ParseContext, 'canonical'>,
  operators = false,
): { filters: StatsFilter[]; status: StatusFilter } {
  const filters: StatsFilter[] = [];
  let status: StatusFilter | null = null;
  for (const entry of filterEntries(raw)) {
    const { key } = entry;
    const operator = operatorOf(entry);
    const values = valuesOf(entry);
    if (values.length === 0) continue;
    const plain = operator === 'is' && values.length === 1;
    if (key === 'status') {
      if (!plain || !STATUSES.includes(values[0] as StatusFilter)) throw invalid('The status filter must be 404, 200 or all.');
      status = values[0] as StatusFilter;
      continue;
    }
    const name = ctx.canonical(key);
    if (!name || !allowed.includes(name)) throw invalid(`Unknown filter: ${key.slice(0, 60)}.`);
    if (!plain && !operators) throw invalid(`Filter ${key.slice(0, 60)}: this route takes one value compared with is.`);
    filters.push(plain ? { dimension: name, value: values[0]! } : { dimension: name, value: values[0]!, operator, values });
  }
  return { filters, status: status ?? '200' };
}

function parseLimit(raw: unknown, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw badRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}.`, 'svc_invalid_param', { field: 'limit' });
  return n;
}

function dateParam(raw: unknown, field: string): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw badRequest(`${field} must be a date written YYYY-MM-DD.`, 'svc_invalid_date', { field });
  return raw;
}

/**
 * The request parser every data route shares: dates normalised to the site
 * timezone (default: the last 30 days), filters in the three forms, metrics
 * intersected with the allow-list (unknown ones dropped; none left means the
 * defaults), group_by checked (unknown refused with 400).
 */
export function parseDataRequest(query: Readonly<Record<string, unknown>>, allow: AllowList, ctx: ParseContext): DataRequest {
  const today = isoDay(ctx.now, ctx.timezone);
  const dateEnd = dateParam(query.date_end, 'date_end') ?? today;
  const dateStart =
    dateParam(query.date_start, 'date_start') ?? parseDay(dateEnd, ctx.timezone, 'date_end').minus({ days: 29 }).toFormat('yyyy-MM-dd');
  const range = rangeOfDays(dateStart, dateEnd, ctx.timezone);
  const days = DateTime.fromSeconds(range.end, { zone: ctx.timezone }).diff(DateTime.fromSeconds(range.start, { zone: ctx.timezone }), 'days').days;
  if (days > MAX_DAYS) throw badRequest(`The date range may span at most ${MAX_DAYS} days.`, 'svc_invalid_date', { field: 'date_start' });

  const requested = nameList(query.metrics, 'metrics');
  const kept = (requested ?? []).filter((m) => allow.metrics.includes(m));
  const metrics = kept.length ? [...new Set(kept)] : [...allow.defaultMetrics];

  const groupRequested = nameList(query.group_by, 'group_by');
  const groupBy = (groupRequested ?? allow.defaultGroupBy).map((g) => {
    const name = allow.groupBy.includes(g) ? g : ctx.canonical(g);
    if (!name || !allow.groupBy.includes(name)) throw badRequest(`Cannot group by ${g.slice(0, 60)} here.`, 'svc_invalid_group_by', { field: 'group_by' });
    return name;
  });

  const { filters, status } = parseFilters(query.filters, allow.filters, ctx, allow.operators);
  return {
    timezone: ctx.timezone,
    dateStart,
    dateEnd,
    range,
    previous: previousPeriod(range, ctx.timezone),
    metrics,
    groupBy: [...new Set(groupBy)],
    filters,
    status,
    limit: parseLimit(query.limit, allow.defaultLimit ?? 100),
  };
}
