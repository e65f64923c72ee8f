import { DateTime } from 'luxon';
import { badRequest, lastAtOrBefore } from '../../../../core';
import { percent } from '../money';
import type { CohortMember, SubscriptionQueries } from '../subscription-queries';
import type { SalesWindow } from '../window';

type Interval = 'month' | 'quarter' | 'year';
const MONTHS: Record<Interval, number> = { month: 1, quarter: 3, year: 12 };
const OFFSET_LABEL: Record<Interval, string> = { month: 'Month', quarter: 'Quarter', year: 'Year' };

export function productParam(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 0;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest('product_id must be a whole number (0 for all products).', 'svc_invalid_param', { field: 'product_id' });
  return n;
}

function cohortLabel(start: DateTime, interval: Interval): string {
  if (interval === 'year') return start.toFormat('yyyy');
  if (interval === 'quarter') return `Q${start.quarter} ${start.year}`;
  return start.setLocale('en').toFormat('LLL yyyy');
}

const subscribedAt = (m: CohortMember, at: number) => m.subscribed.some((p) => p.start <= at && (p.end === null || p.end > at));

/** Starts of the periods of `interval` from the one holding `from` on, one past `until`. */
function periodStarts(from: number, until: number, interval: Interval, tz: string): number[] {
  let at = DateTime.fromSeconds(from, { zone: tz }).startOf(interval);
  const starts = [at.toSeconds()];
  while (starts[starts.length - 1]! < until) {
    at = at.plus({ months: MONTHS[interval] });
    starts.push(at.toSeconds());
  }
  return starts;
}

/**
 * §2.8: cohorts of the subscriptions that started in the window, by month
 * (quarter when the window spans more than two years, year when every
 * subscription bills yearly). Point `k` of a cohort is the share still
 * subscribed (active or trialling) at the end of its k-th period after the
 * cohort's start, or at the window's end when that comes first; null for
 * periods that start after the window.
 */
export async function retention(q: SubscriptionQueries, w: SalesWindow, productId: number, tz: string) {
  const range = w.scope.range;
  const [members, products] = await Promise.all([q.cohortMembers(range, productId), q.products()]);
  const months = DateTime.fromSeconds(range.end, { zone: tz }).diff(DateTime.fromSeconds(range.start, { zone: tz }), 'months').months;
  const interval: Interval = members.length > 0 && members.every((m) => m.yearly) ? 'year' : months > 24 ? 'quarter' : 'month';
  // Period i of the calendar runs from starts[i] to starts[i + 1]; a cohort's k-th point is at the end of period (its own + k).
  const starts = periodStarts(range.start, range.end, interval, tz);
  const cohorts = new Map<number, CohortMember[]>();
  for (const m of members) {
    const i = lastAtOrBefore(starts, m.startedAt);
    if (!cohorts.has(i)) cohorts.set(i, []);
    cohorts.get(i)!.push(m);
  }
  /** Periods after a cohort's own that start before the window ends. */
  const periodsUntil = (i: number) => {
    let n = 0;
    while (starts[i + n + 1] !== undefined && starts[i + n + 1]! < range.end) n++;
    return n;
  };
  const ordered = [...cohorts.keys()].sort((a, b) => a - b);
  const maxOffset = ordered.length ? periodsUntil(ordered[0]!) : 0;
  const rows = ordered.map((i) => {
    const cohort = cohorts.get(i)!;
    const reached = periodsUntil(i);
    const data = Array.from({ length: maxOffset + 1 }, (_, k) => {
      const x = `${OFFSET_LABEL[interval]} ${k}`;
      if (k > reached) return { x, y: null, count: null };
      const at = Math.min(starts[i + k + 1]!, range.end) - 1;
      const count = cohort.filter((m) => subscribedAt(m, at)).length;
      return { x, y: percent(count, cohort.length), count };
    });
    const start = DateTime.fromSeconds(starts[i]!, { zone: tz });
    return { id: `${cohortLabel(start, interval)} (${cohort.length})`, signup_count: cohort.length, data };
  });
  return { interval, max_offset: maxOffset, rows, products };
}
