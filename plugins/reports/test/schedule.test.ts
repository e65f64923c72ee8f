import { DateTime } from 'luxon';
import { lastClosedOccurrence, nextOccurrence, openOccurrence, siteDate, siteYesterday, type Schedule } from '../schedule/occurrences';
import { customBounds, dateRangeProblem, resolveDateRange } from '../schedule/date-ranges';

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const local = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toSeconds();

const daily = (sendTime = '09:00'): Schedule => ({ frequency: 'daily', dayOfWeek: null, weekOfMonth: null, sendTime });
const weekly = (day: Schedule['dayOfWeek'], sendTime = '09:00'): Schedule => ({ frequency: 'weekly', dayOfWeek: day, weekOfMonth: null, sendTime });
const monthly = (week: Schedule['weekOfMonth'], day: Schedule['dayOfWeek'], sendTime = '09:00'): Schedule => ({ frequency: 'monthly', dayOfWeek: day, weekOfMonth: week, sendTime });

describe('send windows', () => {
  it('opens a daily window at the send time and keeps it open for 24 hours', () => {
    expect(openOccurrence(daily(), unix('2026-03-02T08:59:59Z'), 'UTC')).toBe(unix('2026-03-01T09:00:00Z'));
    expect(openOccurrence(daily(), unix('2026-03-02T09:00:00Z'), 'UTC')).toBe(unix('2026-03-02T09:00:00Z'));
    expect(openOccurrence(daily(), unix('2026-03-03T08:59:00Z'), 'UTC')).toBe(unix('2026-03-02T09:00:00Z'));
  });

  it('matches weekly reports on the calendar day of the site timezone, not of UTC', () => {
    // Monday 09:00 in Auckland is Sunday 20:00 UTC.
    const s = weekly('monday');
    expect(openOccurrence(s, unix('2025-11-16T20:00:00Z'), 'Pacific/Auckland')).toBe(unix('2025-11-16T20:00:00Z'));
    expect(siteDate(unix('2025-11-16T20:00:00Z'), 'Pacific/Auckland')).toBe('2025-11-17');
    expect(openOccurrence(s, unix('2025-11-16T19:59:59Z'), 'Pacific/Auckland')).toBeNull();
    // Sunday 23:00 in New York is Monday 04:00 UTC.
    expect(openOccurrence(weekly('sunday', '23:00'), unix('2026-01-12T04:00:00Z'), 'America/New_York')).toBe(unix('2026-01-12T04:00:00Z'));
    expect(openOccurrence(weekly('sunday', '23:00'), unix('2026-01-11T23:00:00Z'), 'America/New_York')).toBeNull();
  });

  it('closes a weekly window 24 hours after the send time', () => {
    const s = weekly('monday');
    expect(openOccurrence(s, unix('2026-03-03T08:59:59Z'), 'UTC')).toBe(unix('2026-03-02T09:00:00Z'));
    expect(openOccurrence(s, unix('2026-03-03T09:00:00Z'), 'UTC')).toBeNull();
    expect(lastClosedOccurrence(s, unix('2026-03-03T09:00:00Z'), 'UTC')).toBe(unix('2026-03-02T09:00:00Z'));
    expect(lastClosedOccurrence(s, unix('2026-03-03T08:59:59Z'), 'UTC')).toBe(unix('2026-02-23T09:00:00Z'));
  });

  it('finds the nth and the last weekday of a month', () => {
    const tz = 'Europe/Amsterdam';
    // February 2026: Mondays 2, 9, 16, 23; Fridays 6, 13, 20, 27.
    expect(nextOccurrence(monthly(1, 'monday'), local('2026-02-01T00:00', tz), tz)).toBe(local('2026-02-02T09:00', tz));
    expect(nextOccurrence(monthly(4, 'monday'), local('2026-02-01T00:00', tz), tz)).toBe(local('2026-02-23T09:00', tz));
    expect(nextOccurrence(monthly(-1, 'friday'), local('2026-02-01T00:00', tz), tz)).toBe(local('2026-02-27T09:00', tz));
    // March 2026 has five Mondays: the last is the 30th, the fourth the 23rd.
    expect(nextOccurrence(monthly(-1, 'monday'), local('2026-03-01T00:00', tz), tz)).toBe(local('2026-03-30T09:00', tz));
    expect(nextOccurrence(monthly(4, 'monday'), local('2026-03-01T00:00', tz), tz)).toBe(local('2026-03-23T09:00', tz));
    expect(openOccurrence(monthly(-1, 'monday'), local('2026-03-23T10:00', tz), tz)).toBeNull();
    // The window of the last Friday of January 2026 (the 30th) spans the month edge.
    expect(openOccurrence(monthly(-1, 'friday'), local('2026-01-31T08:00', tz), tz)).toBe(local('2026-01-30T09:00', tz));
  });

  it('moves a send time the clocks skip to the same wall time an hour later (DST)', () => {
    const tz = 'Europe/Amsterdam';
    // 2026-03-29 02:30 does not exist in Amsterdam.
    expect(nextOccurrence(daily('02:30'), local('2026-03-29T00:00', tz), tz)).toBe(unix('2026-03-29T01:30:00Z'));
    expect(nextOccurrence(daily('02:30'), local('2026-03-30T00:00', tz), tz)).toBe(unix('2026-03-30T00:30:00Z'));
  });

  it('gives the site-timezone date and the day before it', () => {
    expect(siteDate(unix('2026-03-01T23:30:00Z'), 'Europe/Amsterdam')).toBe('2026-03-02');
    expect(siteYesterday(unix('2026-03-01T23:30:00Z'), 'Europe/Amsterdam')).toBe('2026-03-01');
    expect(siteYesterday(unix('2026-03-01T23:30:00Z'), 'UTC')).toBe('2026-02-28');
  });
});

describe('date ranges', () => {
  // The report's data ends on Sunday 2026-03-01; the send day is Monday 2026-03-02.
  const end = '2026-03-01';
  it.each([
    ['today', '2026-03-02', '2026-03-02'],
    ['yesterday', '2026-03-01', '2026-03-01'],
    ['last_7_days', '2026-02-23', '2026-03-01'],
    ['last_30_days', '2026-01-31', '2026-03-01'],
    ['last_week', '2026-02-23', '2026-03-01'],
    ['this_week', '2026-03-02', '2026-03-02'],
    ['last_month', '2026-02-01', '2026-02-28'],
    ['this_month', '2026-03-01', '2026-03-02'],
    ['last_year', '2025-01-01', '2025-12-31'],
    ['custom:2025-12-24:2026-01-02', '2025-12-24', '2026-01-02'],
  ])('%s covers %s to %s', (range, start, last) => {
    expect(resolveDateRange(range, end)).toEqual({ start, end: last });
  });

  it('accepts the documented ranges and refuses anything else', () => {
    expect(dateRangeProblem('last_week')).toBeNull();
    expect(dateRangeProblem('custom:2026-01-01:2026-01-31')).toBeNull();
    expect(dateRangeProblem('custom')).toMatch(/custom:YYYY-MM-DD:YYYY-MM-DD/);
    expect(dateRangeProblem('custom:2026-02-30:2026-03-01')).not.toBeNull();
    expect(dateRangeProblem('custom:2026-03-02:2026-03-01')).not.toBeNull();
    expect(dateRangeProblem('last_fortnight')).toMatch(/must be one of/);
    expect(customBounds('last_week')).toBeNull();
  });
});
