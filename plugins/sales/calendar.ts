import { DateTime } from 'luxon';
import { dayStart } from '../../core';

/** Site-timezone calendar arithmetic of the plugin: day and month starts are unix seconds. */
export { dayStart };

const cache = new Map<string, number>();
const LIMIT = 20_000;

function remember(key: string, compute: () => number): number {
  let value = cache.get(key);
  if (value === undefined) {
    value = compute();
    if (cache.size >= LIMIT) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/** The start of the day after the one starting at `day` (23 to 25 hours later around daylight-saving changes). */
export const nextDayStart = (day: number, tz: string): number => remember(`d|${tz}|${day}`, () => DateTime.fromSeconds(day, { zone: tz }).plus({ days: 1 }).toSeconds());

/** The start of the day before the one starting at `day`. */
export const previousDayStart = (day: number, tz: string): number => remember(`p|${tz}|${day}`, () => DateTime.fromSeconds(day, { zone: tz }).minus({ days: 1 }).toSeconds());

/** The start of the calendar month holding `unix`. */
export const monthStart = (unix: number, tz: string): number => DateTime.fromSeconds(unix, { zone: tz }).startOf('month').toSeconds();

/** The start of the month after the one starting at `month`. */
export const nextMonthStart = (month: number, tz: string): number => remember(`m|${tz}|${month}`, () => DateTime.fromSeconds(month, { zone: tz }).plus({ months: 1 }).toSeconds());

/** The calendar blocks of months the roll-ups keep besides days, longest first: years, quarters, months. */
export const BLOCKS = [12, 3, 1] as const;
const UNIT = { 12: 'year', 3: 'quarter', 1: 'month' } as const;

/** The start of the block of `months` months (a year, quarter or month) holding `unix`. */
export const blockStart = (unix: number, months: (typeof BLOCKS)[number], tz: string): number =>
  remember(`s${months}|${tz}|${unix}`, () => DateTime.fromSeconds(unix, { zone: tz }).startOf(UNIT[months]).toSeconds());

/** The start of the block after the one of `months` months starting at `start`. */
export const nextBlockStart = (start: number, months: number, tz: string): number =>
  remember(`b${months}|${tz}|${start}`, () => DateTime.fromSeconds(start, { zone: tz }).plus({ months }).toSeconds());

/** Whether `unix` is the start of a day in `tz`. */
export const isDayStart = (unix: number, tz: string): boolean => dayStart(unix, tz) === unix;

/** Unix start of each site-timezone day holding one of `times`, without repeats, in order. */
export function daysOf(times: Iterable<number>, tz: string): number[] {
  const days = new Set<number>();
  for (const t of times) days.add(dayStart(t, tz));
  return [...days].sort((a, b) => a - b);
}
