import type { TimeRange } from '../../../core';
import { isDayStart, monthStart, nextDayStart, nextMonthStart } from '../calendar';

/**
 * Where the figures of one window come from: month roll-ups for the
 * calendar months it holds whole, day roll-ups for its other folded days and
 * the raw events for the rest (today, days not folded yet, days changed since
 * their fold). The ranges are in order and never overlap; together they are
 * the window.
 */
export interface Plan {
  /** The window. */
  window: TimeRange;
  /** Month starts (ranges over the `month` column) read from the month tables. */
  months: TimeRange[];
  /** Day starts (ranges over the `day` column) read from the day tables. */
  days: TimeRange[];
  /** Every folded day the window reads, by month or by day (for the tables kept by day only). */
  folded: TimeRange[];
  /** Time ranges read from the raw events. */
  raw: TimeRange[];
}

/** The days of a site that are folded: [from, to) less the stale days. */
export interface FoldedDays {
  from: number;
  to: number;
  timezone: string;
  /** Stale days inside the window, in order. */
  stale: readonly number[];
}

/** A window read from the raw events alone. */
export const rawPlan = (window: TimeRange): Plan => ({ window, months: [], days: [], folded: [], raw: window.end > window.start ? [window] : [] });

/** Appends [start, end) to ranges, joining it to the last one when they touch. */
function append(ranges: TimeRange[], start: number, end: number): void {
  if (end <= start) return;
  const last = ranges[ranges.length - 1];
  if (last && last.end === start) last.end = end;
  else ranges.push({ start, end });
}

/**
 * Splits `window` by what `folded` holds. A window whose edges are not whole
 * days of the site's timezone, or a site folded in another timezone, is read
 * from the raw events alone.
 */
export function planWindow(window: TimeRange, tz: string, folded: FoldedDays | null): Plan {
  if (!folded || folded.timezone !== tz || window.end <= window.start || !isDayStart(window.start, tz) || !isDayStart(window.end, tz)) return rawPlan(window);
  const plan: Plan = { window, months: [], days: [], folded: [], raw: [] };
  const stale = new Set(folded.stale);
  const start = Math.max(window.start, folded.from);
  const end = Math.min(window.end, folded.to);
  append(plan.raw, window.start, Math.min(start, window.end));
  if (start < end) {
    // Runs of folded days between stale ones; whole months of a run come from the month tables.
    let day = start;
    while (day < end) {
      if (stale.has(day)) {
        const next = nextDayStart(day, tz);
        append(plan.raw, day, next);
        day = next;
        continue;
      }
      const month = monthStart(day, tz);
      const monthEnd = nextMonthStart(month, tz);
      if (month === day && monthEnd <= end && !folded.stale.some((s) => s >= month && s < monthEnd)) {
        append(plan.months, month, monthEnd);
        append(plan.folded, month, monthEnd);
        day = monthEnd;
        continue;
      }
      const next = nextDayStart(day, tz);
      append(plan.days, day, next);
      append(plan.folded, day, next);
      day = next;
    }
  }
  append(plan.raw, Math.max(end, start), window.end);
  return plan;
}
