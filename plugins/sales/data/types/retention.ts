import { DateTime } from 'luxon';
import { badRequest } from '../../../../core';
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
  const members = await q.cohortMembers(range, productId);
  const first = DateTime.fromSeconds(range.start, { zone: tz });
  const months = DateTime.fromSeconds(range.end, { zone: tz }).diff(first, 'months').months;
  const interval: Interval = members.length > 0 && members.every((m) => m.yearly) ? 'year' : months > 24 ? 'quarter' : 'month';
  const step = MONTHS[interval];
  const startOf = (t: number) => {
    const at = DateTime.fromSeconds(t, { zone: tz });
    return interval === 'month' ? at.startOf('month') : interval === 'quarter' ? at.startOf('quarter') : at.startOf('year');
  };
  const cohorts = new Map<number, { start: DateTime; members: CohortMember[] }>();
  for (const m of members) {
    const start = startOf(m.startedAt);
    const key = start.toSeconds();
    if (!cohorts.has(key)) cohorts.set(key, { start, members: [] });
    cohorts.get(key)!.members.push(m);
  }
  const periodsUntil = (start: DateTime) => {
    let n = 0;
    while (start.plus({ months: (n + 1) * step }).toSeconds() < range.end) n++;
    return n;
  };
  const ordered = [...cohorts.values()].sort((a, b) => a.start.toSeconds() - b.start.toSeconds());
  const maxOffset = ordered.length ? periodsUntil(ordered[0]!.start) : 0;
  const rows = ordered.map(({ start, members: cohort }) => {
    const reached = periodsUntil(start);
    const data = Array.from({ length: maxOffset + 1 }, (_, k) => {
      const x = `${OFFSET_LABEL[interval]} ${k}`;
      if (k > reached) return { x, y: null, count: null };
      const at = Math.min(start.plus({ months: (k + 1) * step }).toSeconds(), range.end) - 1;
      const count = cohort.filter((m) => subscribedAt(m, at)).length;
      return { x, y: percent(count, cohort.length), count };
    });
    return { id: `${cohortLabel(start, interval)} (${cohort.length})`, signup_count: cohort.length, data };
  });
  return { interval, max_offset: maxOffset, rows, products: await q.products() };
}
