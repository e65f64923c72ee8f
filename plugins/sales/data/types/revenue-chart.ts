import { DateTime } from 'luxon';
import { badRequest, bucketEdges, type TimeRange } from '../../../../core';
import { roundMoney } from '../money';
import type { SubscriptionQueries } from '../subscription-queries';
import type { SalesWindow } from '../window';

export const CHART_GROUPS = ['auto', 'day', 'week', 'month'] as const;
export const CHART_MODES = ['revenue', 'sales'] as const;
type Interval = 'day' | 'week' | 'month';

/** `auto`: days up to a month, weeks up to half a year, months beyond. */
export function resolveInterval(requested: string, range: TimeRange): Interval {
  if (requested === 'day' || requested === 'week' || requested === 'month') return requested;
  const days = (range.end - range.start) / 86_400;
  if (days <= 31) return 'day';
  return days <= 183 ? 'week' : 'month';
}

export function chartMode(raw: unknown): (typeof CHART_MODES)[number] {
  if (raw === undefined || raw === null || raw === '') return 'revenue';
  if (raw === 'revenue' || raw === 'sales') return raw;
  throw badRequest('chart_mode must be revenue or sales.', 'svc_invalid_param', { field: 'chart_mode' });
}

function label(start: number, interval: Interval, multiYear: boolean, tz: string): string {
  const at = DateTime.fromSeconds(start, { zone: tz }).setLocale('en');
  if (interval === 'month') return at.toFormat('LLL yyyy');
  return at.toFormat(multiYear ? 'LLL d, yyyy' : 'LLL d');
}

/**
 * §2.6: new (created and converted) and renewal payments per day, week or
 * month of the window, as revenue in the window's currency or as counts
 * (`chart_mode` sales). A bucket starts at its calendar start in the site
 * timezone (weeks on Monday) and holds only days inside the window.
 */
export async function revenueChart(q: SubscriptionQueries, w: SalesWindow, groupBy: string, mode: (typeof CHART_MODES)[number], tz: string) {
  const range = w.scope.range;
  const interval = resolveInterval(groupBy, range);
  const edges = bucketEdges(range, interval, tz);
  const multiYear = DateTime.fromSeconds(range.start, { zone: tz }).year !== DateTime.fromSeconds(Math.max(range.start, range.end - 1), { zone: tz }).year;
  const rows = edges.slice(0, -1).map((start) => ({ timestamp: start, label: label(start, interval, multiYear, tz), newValue: 0, renewalValue: 0 }));
  let bucket = 0;
  // Month buckets add up whole months from their monthly sums.
  for (const day of await q.days(range, w.currency, interval === 'month')) {
    while (bucket + 1 < rows.length && day.day >= edges[bucket + 1]!) bucket++;
    const row = rows[bucket]!;
    row.newValue += mode === 'sales' ? day.new_count : day.new_revenue;
    row.renewalValue += mode === 'sales' ? day.renewal_count : day.renewal_revenue;
  }
  if (mode === 'revenue') {
    for (const row of rows) {
      row.newValue = roundMoney(row.newValue, w.currency);
      row.renewalValue = roundMoney(row.renewalValue, w.currency);
    }
  }
  return { interval, spans_multiple_years: multiYear, mode, currency: w.currency, rows };
}
