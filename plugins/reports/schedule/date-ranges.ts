import { DateTime } from 'luxon';
import { DATE_RANGES } from '../constants';

/** A span of whole calendar days, both ends included, written `Y-m-d`. */
export interface DaySpan {
  start: string;
  end: string;
}

const CUSTOM = /^custom:(\d{4}-\d{2}-\d{2}):(\d{4}-\d{2}-\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const day = (value: string) => DateTime.fromISO(value, { zone: 'UTC' });
const ymd = (value: DateTime) => value.toFormat('yyyy-MM-dd');

/** True for a real calendar date written `Y-m-d`. */
export function isDay(value: string): boolean {
  return DAY.test(value) && day(value).isValid;
}

/** The bounds of a `custom:start:end` range, or null when `value` is not one with real, ordered dates. */
export function customBounds(value: string): DaySpan | null {
  const match = CUSTOM.exec(value);
  if (!match || !isDay(match[1]!) || !isDay(match[2]!) || match[1]! > match[2]!) return null;
  return { start: match[1]!, end: match[2]! };
}

/** Why `value` is not a report date range, or null when it is one. */
export function dateRangeProblem(value: string): string | null {
  if (value.startsWith('custom')) {
    return customBounds(value) ? null : 'a custom range is written custom:YYYY-MM-DD:YYYY-MM-DD with start on or before end';
  }
  return (DATE_RANGES as readonly string[]).includes(value) ? null : `must be one of ${DATE_RANGES.join(', ')}`;
}

/**
 * The days a range covers when the report's data ends on `endDay` (its
 * fixed end date, normally yesterday): `today` is the day after it, the
 * "last" ranges are the whole weeks, months or year before that day.
 */
export function resolveDateRange(range: string, endDay: string): DaySpan {
  const custom = customBounds(range);
  if (custom) return custom;
  const end = day(endDay);
  const today = end.plus({ days: 1 });
  switch (range) {
    case 'today':
      return { start: ymd(today), end: ymd(today) };
    case 'yesterday':
      return { start: endDay, end: endDay };
    case 'last_7_days':
      return { start: ymd(end.minus({ days: 6 })), end: endDay };
    case 'last_30_days':
      return { start: ymd(end.minus({ days: 29 })), end: endDay };
    case 'this_week':
      return { start: ymd(today.startOf('week')), end: ymd(today) };
    case 'this_month':
      return { start: ymd(today.startOf('month')), end: ymd(today) };
    case 'last_month': {
      const month = today.startOf('month').minus({ months: 1 });
      return { start: ymd(month), end: ymd(month.endOf('month')) };
    }
    case 'last_year': {
      const year = today.startOf('year').minus({ years: 1 });
      return { start: ymd(year), end: ymd(year.endOf('year')) };
    }
    default: {
      // last_week, and the default for anything unrecognised in old rows.
      const week = today.startOf('week').minus({ weeks: 1 });
      return { start: ymd(week), end: ymd(week.endOf('week')) };
    }
  }
}

/** The day a report's data ends on: its fixed end date, or yesterday in the site timezone before its first mail. */
export function reportEndDay(fixedEndDate: string, now: number, timezone: string): string {
  if (fixedEndDate && isDay(fixedEndDate)) return fixedEndDate;
  return ymd(DateTime.fromSeconds(now, { zone: timezone }).minus({ days: 1 }));
}

/** A block's days: its own range when the override is on, else the report's range, both ending on `endDay`. */
export function blockSpan(
  block: { date_range?: string; date_range_enabled?: boolean; fixed_end_date?: string },
  reportRange: string,
  endDay: string,
): DaySpan {
  if (block.date_range_enabled && block.date_range) return resolveDateRange(block.date_range, block.fixed_end_date || endDay);
  return resolveDateRange(reportRange, endDay);
}

/** A readable label such as "1 Dec 2025 – 7 Dec 2025" (or one day). */
export function spanLabel(span: DaySpan): string {
  const format = (v: string) => day(v).toFormat('d LLL yyyy');
  return span.start === span.end ? format(span.start) : `${format(span.start)} – ${format(span.end)}`;
}
