import { DateTime } from 'luxon';
import { badRequest } from '../errors';
import type { TimeBucket, TimeRange } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` day at 00:00 in `tz`; a 400 naming `field` when it is not a real date. */
export function parseDay(value: string, tz: string, field: string): DateTime {
  const day = DATE.test(value) ? DateTime.fromISO(value, { zone: tz }) : null;
  if (!day || !day.isValid) throw badRequest(`${field} must be a date written YYYY-MM-DD.`, 'svc_invalid_date', { field });
  return day.startOf('day');
}

/** date_start 00:00:00 to date_end 23:59:59 in the site timezone, as the half-open [start, next midnight). */
export function rangeOfDays(dateStart: string, dateEnd: string, tz: string): TimeRange {
  const start = parseDay(dateStart, tz, 'date_start');
  const end = parseDay(dateEnd, tz, 'date_end');
  if (end < start) throw badRequest('date_end must not be before date_start.', 'svc_invalid_date', { field: 'date_end' });
  return { start: start.toSeconds(), end: end.plus({ days: 1 }).toSeconds() };
}

/** The period of the same number of calendar days just before `range`. */
export function previousPeriod(range: TimeRange, tz: string): TimeRange {
  const start = DateTime.fromSeconds(range.start, { zone: tz });
  const end = DateTime.fromSeconds(range.end, { zone: tz });
  const days = Math.max(1, Math.round(end.diff(start, 'days').days));
  return { start: start.minus({ days }).toSeconds(), end: range.start };
}

/** The same calendar days a year before `range` (29 February falls on the 28th). */
export function yearEarlier(range: TimeRange, tz: string): TimeRange {
  const back = (at: number) => DateTime.fromSeconds(at, { zone: tz }).minus({ years: 1 }).startOf('day').toSeconds();
  return { start: back(range.start), end: back(range.end) };
}

/** Calendar arithmetic is costly in luxon; day boundaries are remembered (bounded) per timezone. */
const NEXT_DAY = new Map<string, number>();
const NEXT_DAY_LIMIT = 100_000;
const CURRENT_DAY = new Map<string, { start: number; end: number }>();

/** Unix start of the site-timezone day holding `unix`. */
export function dayStart(unix: number, tz: string): number {
  const known = CURRENT_DAY.get(tz);
  if (known && unix >= known.start && unix < known.end) return known.start;
  const start = DateTime.fromSeconds(unix, { zone: tz }).startOf('day').toSeconds();
  CURRENT_DAY.set(tz, { start, end: nextDay(start, tz) });
  return start;
}

/** The start of the day after the one starting at `day` (23 to 25 hours later around daylight-saving changes). */
export function nextDay(day: number, tz: string): number {
  const key = `${tz}|${day}`;
  let next = NEXT_DAY.get(key);
  if (next === undefined) {
    next = DateTime.fromSeconds(day, { zone: tz }).plus({ days: 1 }).toSeconds();
    if (NEXT_DAY.size >= NEXT_DAY_LIMIT) NEXT_DAY.clear();
    NEXT_DAY.set(key, next);
  }
  return next;
}

/** Starts of the whole site-timezone days inside `range`. */
export function wholeDays(range: TimeRange, tz: string): number[] {
  const days: number[] = [];
  let day = DateTime.fromSeconds(range.start, { zone: tz }).startOf('day').toSeconds();
  if (day < range.start) day = nextDay(day, tz);
  for (let next = nextDay(day, tz); next <= range.end; day = next, next = nextDay(day, tz)) days.push(day);
  return days;
}

/** Boundaries of the calendar buckets covering `range`: starts plus the final end. */
export function bucketEdges(range: TimeRange, unit: TimeBucket, tz: string): number[] {
  if (unit === 'day') {
    const edges = [DateTime.fromSeconds(range.start, { zone: tz }).startOf('day').toSeconds()];
    while (edges[edges.length - 1]! < range.end) edges.push(nextDay(edges[edges.length - 1]!, tz));
    return edges;
  }
  let at = DateTime.fromSeconds(range.start, { zone: tz }).startOf(unit);
  const edges: number[] = [];
  while (at.toSeconds() < range.end) {
    edges.push(at.toSeconds());
    at = at.plus({ [unit === 'week' ? 'weeks' : `${unit}s`]: 1 });
  }
  edges.push(at.toSeconds());
  return edges;
}

const LABELS: Record<TimeBucket, string> = { hour: "yyyy-MM-dd HH:'00'", day: 'yyyy-MM-dd', week: 'yyyy-MM-dd', month: 'yyyy-MM' };

export function bucketLabel(start: number, unit: TimeBucket, tz: string): string {
  return DateTime.fromSeconds(start, { zone: tz }).toFormat(LABELS[unit]);
}

/** The grouping a chart of `range` uses when the request names none. */
export function autoBucket(range: TimeRange): TimeBucket {
  const days = (range.end - range.start) / 86400;
  if (days <= 1.05) return 'hour';
  return days <= 92 ? 'day' : 'month';
}

export function isoDay(unix: number, tz: string): string {
  return DateTime.fromSeconds(unix, { zone: tz }).toFormat('yyyy-MM-dd');
}

const MONTH_START = new Map<string, number>();

/** Unix start of the calendar month holding the day that starts at `day`. */
export function monthStart(day: number, tz: string): number {
  const key = `${tz}|${day}`;
  let start = MONTH_START.get(key);
  if (start === undefined) {
    start = DateTime.fromSeconds(day, { zone: tz }).startOf('month').toSeconds();
    if (MONTH_START.size >= NEXT_DAY_LIMIT) MONTH_START.clear();
    MONTH_START.set(key, start);
  }
  return start;
}

/** Starts of every day of the month beginning at `month`. */
export function daysOfMonth(month: number, tz: string): number[] {
  const days = [month];
  for (let next = nextDay(month, tz); monthStart(next, tz) === month; next = nextDay(next, tz)) days.push(next);
  return days;
}

/** The index of the last of the ascending `sorted` at or before `t` (0 when `t` comes before them all), looking no further than `last`. */
export function lastAtOrBefore(sorted: readonly number[], t: number, last = sorted.length - 1): number {
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
