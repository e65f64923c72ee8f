import { DateTime } from 'luxon';
import { DAYS_OF_WEEK, type DayOfWeek, type Frequency, GRACE_WINDOW, type WeekOfMonth } from '../constants';

export interface Schedule {
  frequency: Frequency;
  dayOfWeek: DayOfWeek | null;
  weekOfMonth: WeekOfMonth | null;
  /** HH:MM in the site timezone. */
  sendTime: string;
}

/** Far enough back or ahead to meet any monthly occurrence and the one before it. */
const SEARCH_DAYS = 70;

/** Whether the site-timezone calendar day `day` is a send day (§2.1 frequency semantics). */
function isSendDay(schedule: Schedule, day: DateTime): boolean {
  if (schedule.frequency === 'daily') return true;
  if (!schedule.dayOfWeek || day.weekday !== DAYS_OF_WEEK.indexOf(schedule.dayOfWeek) + 1) return false;
  if (schedule.frequency === 'weekly') return true;
  if (schedule.weekOfMonth === -1) return day.plus({ days: 7 }).month !== day.month;
  return schedule.weekOfMonth !== null && Math.ceil(day.day / 7) === schedule.weekOfMonth;
}

/** The send time on `day`; a time the clocks skip (DST) moves forward, as luxon does. */
function sendAt(schedule: Schedule, day: DateTime): number {
  const [hour, minute] = schedule.sendTime.split(':').map(Number);
  return day.set({ hour: hour ?? 0, minute: minute ?? 0, second: 0, millisecond: 0 }).toSeconds();
}

/** Scheduled times at or before `now` (unix), latest first. */
export function* occurrencesUntil(schedule: Schedule, now: number, tz: string): Generator<number> {
  let day = DateTime.fromSeconds(now, { zone: tz }).startOf('day');
  for (let i = 0; i < SEARCH_DAYS; i++, day = day.minus({ days: 1 })) {
    if (!isSendDay(schedule, day)) continue;
    const at = sendAt(schedule, day);
    if (at <= now) yield at;
  }
}

/** The first scheduled time after `after` (unix), or null when none comes within the search span. */
export function nextOccurrence(schedule: Schedule, after: number, tz: string): number | null {
  let day = DateTime.fromSeconds(after, { zone: tz }).startOf('day');
  for (let i = 0; i < SEARCH_DAYS; i++, day = day.plus({ days: 1 })) {
    if (!isSendDay(schedule, day)) continue;
    const at = sendAt(schedule, day);
    if (at > after) return at;
  }
  return null;
}

/** The occurrence whose send window (scheduled time + 24 h grace) holds `now`, or null (§1 rule 2). */
export function openOccurrence(schedule: Schedule, now: number, tz: string): number | null {
  const { value: latest } = occurrencesUntil(schedule, now, tz).next();
  return latest !== undefined && now < latest + GRACE_WINDOW ? latest : null;
}

/** The latest occurrence whose send window has closed by `now`, or null. */
export function lastClosedOccurrence(schedule: Schedule, now: number, tz: string): number | null {
  for (const at of occurrencesUntil(schedule, now, tz)) if (at + GRACE_WINDOW <= now) return at;
  return null;
}

/**
 * Whether the report, as last edited at unix `lastEdit`, owes the occurrence
 * at unix `occurrence`: every occurrence from the day of the edit on (site
 * timezone). One from earlier that day is still inside its send window
 * (§1 rule 2), so a report created or changed after today's send time goes
 * out for today; one from an earlier day was never expected of it.
 */
export function owesOccurrence(lastEdit: number, occurrence: number, tz: string): boolean {
  return occurrence >= DateTime.fromSeconds(lastEdit, { zone: tz }).startOf('day').toSeconds();
}

/** `Y-m-d` of `unix` in the site timezone: the queue id of a scheduled send. */
export function siteDate(unix: number, tz: string): string {
  return DateTime.fromSeconds(unix, { zone: tz }).toFormat('yyyy-MM-dd');
}

/** `Y-m-d` of the day before `unix` in the site timezone (§1 rule 8). */
export function siteYesterday(unix: number, tz: string): string {
  return DateTime.fromSeconds(unix, { zone: tz }).minus({ days: 1 }).toFormat('yyyy-MM-dd');
}
