import { autoBucket, bucketEdges, bucketLabel, dayStart, lastAtOrBefore, nextDay, previousPeriod, rangeOfDays, wholeDays, yearEarlier } from '../dates';
import { safeCell, toCsv } from '../csv';

const TZ = 'Europe/Amsterdam';
const unix = (iso: string) => Date.parse(iso) / 1000;

describe('site-timezone calendar', () => {
  it('normalises date_start and date_end to whole days in the site timezone', () => {
    expect(rangeOfDays('2026-01-12', '2026-01-14', TZ)).toEqual({ start: unix('2026-01-11T23:00:00Z'), end: unix('2026-01-14T23:00:00Z') });
    expect(() => rangeOfDays('2026-02-29', '2026-03-01', TZ)).toThrow('date_start');
    expect(() => rangeOfDays('2026-03-02', '2026-03-01', TZ)).toThrow('date_end');
  });

  it('handles the daylight-saving days: 23 and 25 hours', () => {
    const spring = unix('2026-03-28T23:00:00Z');
    expect(nextDay(spring, TZ) - spring).toBe(23 * 3600);
    const autumn = unix('2026-10-24T22:00:00Z');
    expect(nextDay(autumn, TZ) - autumn).toBe(25 * 3600);
    expect(dayStart(unix('2026-03-29T12:00:00Z'), TZ)).toBe(spring);
    const hours = bucketEdges({ start: spring, end: nextDay(spring, TZ) }, 'hour', TZ);
    expect(hours).toHaveLength(24);
    expect(bucketLabel(hours[2]!, 'hour', TZ)).toBe('2026-03-29 03:00');
    expect(wholeDays(rangeOfDays('2026-03-28', '2026-03-30', TZ), TZ)).toHaveLength(3);
  });

  it('buckets weeks from Monday and months from the 1st, and picks the chart interval', () => {
    const range = rangeOfDays('2026-01-07', '2026-02-10', TZ);
    const weeks = bucketEdges(range, 'week', TZ);
    expect(weeks.slice(0, -1).map((w) => bucketLabel(w, 'week', TZ))).toEqual(['2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26', '2026-02-02', '2026-02-09']);
    expect(bucketEdges(range, 'month', TZ).slice(0, -1).map((m) => bucketLabel(m, 'month', TZ))).toEqual(['2026-01', '2026-02']);
    expect(autoBucket(rangeOfDays('2026-03-29', '2026-03-29', TZ))).toBe('hour');
    expect(autoBucket(rangeOfDays('2026-01-01', '2026-03-31', TZ))).toBe('day');
    expect(autoBucket(rangeOfDays('2025-01-01', '2025-12-31', TZ))).toBe('month');
  });

  it('takes the previous period of the same number of days', () => {
    const range = rangeOfDays('2026-03-01', '2026-03-31', TZ);
    const previous = previousPeriod(range, TZ);
    expect(previous).toEqual(rangeOfDays('2026-01-29', '2026-02-28', TZ));
  });

  it('takes the same days a year earlier, 29 February on the 28th', () => {
    expect(yearEarlier(rangeOfDays('2026-03-01', '2026-03-31', TZ), TZ)).toEqual(rangeOfDays('2025-03-01', '2025-03-31', TZ));
    expect(yearEarlier(rangeOfDays('2028-02-29', '2028-02-29', TZ), TZ)).toEqual(rangeOfDays('2027-02-28', '2027-02-28', TZ));
  });
});

describe('CSV cells', () => {
  it('neutralises formula starts and keeps numbers', () => {
    for (const bad of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(safeCell(bad)).toBe(`'${bad}`);
    expect(safeCell('/page')).toBe('/page');
    expect(safeCell(-5)).toBe(-5);
    expect(toCsv([{ a: '=x', b: 'q"uote', c: 3 }], ['c', 'a'])).toBe('c,a,b\r\n3,\'=x,"q""uote"\r\n');
  });
});

describe('lastAtOrBefore', () => {
  it('finds the last start at or before a time, within a bound', () => {
    const starts = [10, 20, 30, 40];
    expect([5, 10, 19, 20, 39, 40, 99].map((t) => lastAtOrBefore(starts, t))).toEqual([0, 0, 0, 1, 2, 3, 3]);
    expect(lastAtOrBefore(starts, 99, 2)).toBe(2);
  });
});
