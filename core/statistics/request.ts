import { DateTime } from 'luxon';
import { badRequest } from '../errors';
import { isoDay, parseDay, previousPeriod, rangeOfDays } from './dates';
import type { StatsFilter, StatusFilter, TimeRange } from './types';

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

function filterEntries(raw: unknown): Array<[string, unknown]> {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('[') || text.startsWith('{')) {
      try {
        return filterEntries(JSON.parse(text));
      } catch (err) {
        if (err instanceof SyntaxError) throw badRequest('filters is not valid JSON.', 'svc_invalid_filter', { field: 'filters' });
        throw err;
      }
    }
    return text.split(',').filter((p) => p.trim()).map(pairOf);
  }
  if (Array.isArray(raw)) {
    return raw.map((item): [string, unknown] => {
      if (typeof item === 'string') return pairOf(item);
      if (item && typeof item === 'object' && typeof (item as { key?: unknown }).key === 'string') {
        return [(item as { key: string }).key, (item as { value?: unknown }).value ?? ''];
      }
      throw badRequest('Each filter must be {key, value} or "key:value".', 'svc_invalid_filter', { field: 'filters' });
    });
  }
  if (typeof raw === 'object') return Object.entries(raw as Record<string, unknown>);
  throw badRequest('filters must be an array, a JSON string or a comma-separated string.', 'svc_invalid_filter', { field: 'filters' });
}

function pairOf(text: string): [string, string] {
  const at = text.indexOf(':');
  if (at <= 0) throw badRequest(`Filter "${text.slice(0, 60)}" must be written key:value.`, 'svc_invalid_filter', { field: 'filters' });
  return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

/** Filters in the three forms of §4.1, checked against `allowed`; the status filter is split out. */
export function parseFilters(raw: unknown, allowed: readonly string[], ctx: Pick<ParseContext, 'canonical'>): { filters: StatsFilter[]; status: StatusFilter } {
  const filters: StatsFilter[] = [];
  let status: StatusFilter | null = null;
  for (const [key, rawValue] of filterEntries(raw)) {
    if (rawValue !== null && typeof rawValue === 'object') throw badRequest(`Filter ${key.slice(0, 60)} must have a text value.`, 'svc_invalid_filter', { field: 'filters' });
    const value = rawValue === undefined || rawValue === null ? '' : String(rawValue);
    if (value === '') continue;
    if (value.length > MAX_VALUE) throw badRequest(`Filter ${key.slice(0, 60)} is longer than ${MAX_VALUE} characters.`, 'svc_invalid_filter', { field: 'filters' });
    if (key === 'status') {
      if (!STATUSES.includes(value as StatusFilter)) throw badRequest('The status filter must be 404, 200 or all.', 'svc_invalid_filter', { field: 'filters' });
      status = value as StatusFilter;
      continue;
    }
    const name = ctx.canonical(key);
    if (!name || !allowed.includes(name)) throw badRequest(`Unknown filter: ${key.slice(0, 60)}.`, 'svc_invalid_filter', { field: 'filters' });
    filters.push({ dimension: name, value });
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

  const { filters, status } = parseFilters(query.filters, allow.filters, ctx);
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
