import { DateTime } from 'luxon';
import type { ReportBlock, ReportObject } from './report-types';

/** Whole calendar days, both ends included, written `Y-m-d`. */
export interface DaySpan {
  start: string;
  end: string;
}

const CUSTOM = /^custom:(\d{4}-\d{2}-\d{2}):(\d{4}-\d{2}-\d{2})$/;
const day = (value: string) => DateTime.fromISO(value, { zone: 'UTC' });
const ymd = (value: DateTime) => value.toFormat('yyyy-MM-dd');

/**
 * The days a report date range (DESIGN.md §3) covers when the report's data
 * ends on `endDay`, read as the report mails read it: `today` is the day after
 * `endDay`, the "last" ranges are the whole weeks, months or year before it.
 */
export function reportSpan(range: string, endDay: string): DaySpan {
  const custom = CUSTOM.exec(range);
  if (custom && day(custom[1]!).isValid && day(custom[2]!).isValid && custom[1]! <= custom[2]!) return { start: custom[1]!, end: custom[2]! };
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
      const week = today.startOf('week').minus({ weeks: 1 });
      return { start: ymd(week), end: ymd(week.endOf('week')) };
    }
  }
}

/** The report's own period: it ends on its fixed end date, or yesterday (site timezone) before its first mail. */
export function reportPeriod(report: Pick<ReportObject, 'reportDateRange' | 'fixedEndDate'>, now: number, timezone: string): DaySpan {
  return reportSpan(report.reportDateRange, endDayOf(report.fixedEndDate, now, timezone));
}

/** A block's period: its own range when the override is on, else the report's. */
export function blockPeriod(block: ReportBlock, report: Pick<ReportObject, 'reportDateRange' | 'fixedEndDate'>, now: number, timezone: string): DaySpan {
  const endDay = endDayOf(report.fixedEndDate, now, timezone);
  if (block.date_range_enabled && block.date_range) return reportSpan(block.date_range, block.fixed_end_date || endDay);
  return reportSpan(report.reportDateRange, endDay);
}

/** "1 Dec 2025 – 7 Dec 2025", or one day. */
export function spanLabel(span: DaySpan): string {
  const format = (v: string) => day(v).toFormat('d LLL yyyy');
  return span.start === span.end ? format(span.start) : `${format(span.start)} – ${format(span.end)}`;
}

function endDayOf(fixedEndDate: string, now: number, timezone: string): string {
  if (fixedEndDate && day(fixedEndDate).isValid) return fixedEndDate;
  return ymd(DateTime.fromSeconds(now, { zone: timezone }).minus({ days: 1 }));
}
