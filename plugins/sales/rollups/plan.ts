import type { TimeRange } from '../../../core';
import { BLOCKS, blockStart, isDayStart, nextBlockStart, nextDayStart } from '../calendar';

/** Calendar blocks of one length read from the month tables: starts (ranges over the `month` column) of `months`-month blocks. */
export interface Blocks {
  months: number;
  ranges: TimeRange[];
}

/**
 * Where the figures of one window come from: the years, quarters and months
 * it holds whole from the month tables, its other folded days from the day
 * tables and the raw events for the rest (today, days not folded yet, days
 * changed since their fold). The ranges are in order and never overlap;
 * together they are the window.
 */
export interface Plan {
  /** The window. */
  window: TimeRange;
  /** Whole years, quarters and months, longest first. */
  blocks: Blocks[];
  /** Day starts (ranges over the `day` column) read from the day tables. */
  days: TimeRange[];
  /** Every folded day the window reads, in blocks or by day (for the tables kept by day only). */
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
export const rawPlan = (window: TimeRange): Plan => ({ window, blocks: [], days: [], folded: [], raw: window.end > window.start ? [window] : [] });

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
  const plan: Plan = { window, blocks: BLOCKS.map((months) => ({ months, ranges: [] })), days: [], folded: [], raw: [] };
  const stale = new Set(folded.stale);
  const staleIn = (start: number, end: number) => folded.stale.some((s) => s >= start && s < end);
  const start = Math.max(window.start, folded.from);
  const end = Math.min(window.end, folded.to);
  append(plan.raw, window.start, Math.min(start, window.end));
  let day = start;
  while (day < end) {
    if (stale.has(day)) {
      const next = nextDayStart(day, tz);
      append(plan.raw, day, next);
      day = next;
      continue;
    }
    // The longest whole year, quarter or month starting here without a stale day, else the day.
    const block = BLOCKS.map((months, i) => ({ i, start: blockStart(day, months, tz), end: nextBlockStart(blockStart(day, months, tz), months, tz) })).find(
      (b) => b.start === day && b.end <= end && !staleIn(b.start, b.end),
    );
    const next = block ? block.end : nextDayStart(day, tz);
    append(block ? plan.blocks[block.i]!.ranges : plan.days, day, next);
    append(plan.folded, day, next);
    day = next;
  }
  append(plan.raw, Math.max(end, start), window.end);
  plan.blocks = plan.blocks.filter((b) => b.ranges.length > 0);
  return plan;
}
