import { DateTime } from 'luxon';
import type { Transaction } from 'sequelize';
import type { Database } from '../../../core';
import { monthStart, nextDayStart, nextMonthStart } from '../calendar';
import { num, tbl } from '../db';

/** The measures of a day (and month) of subscription figures. */
const MEASURES = ['events', 'new_count', 'new_revenue', 'renewal_count', 'renewal_revenue', 'trial_count', 'canceled_count', 'expired_count'] as const;
const KEY = 'product_id, currency, gateway, country_code';

/** Starts of the `count` days from `first` on (site timezone, so daylight-saving days have their true length). */
export function dayRun(first: number, count: number, tz: string): number[] {
  const start = DateTime.fromSeconds(first, { zone: tz }).startOf('day');
  return Array.from({ length: count }, (_, i) => start.plus({ days: i }).toSeconds());
}

/**
 * Recomputes the site's daily subscription aggregation of `day` from the stored
 * events: one row per product, currency, gateway and country with the event
 * count, new (created and converted) and renewal payments, trials,
 * cancellations and expiries. A recompute, so running it twice is harmless.
 */
async function aggregateDay(db: Database, siteId: number, day: number, tz: string, t: Transaction): Promise<void> {
  const days = tbl(db, 'subscription_days');
  await db.execute(`DELETE FROM ${days} WHERE site_id = ? AND day = ?`, [siteId, day], t);
  const isNew = "e.event IN ('created', 'converted')";
  await db.execute(
    `INSERT INTO ${days} (site_id, day, product_id, currency, gateway, country_code, events, new_count, new_revenue, renewal_count, renewal_revenue, trial_count, canceled_count, expired_count)
     SELECT ?, ?, e.product_id, e.currency, e.gateway, e.country_code, COUNT(*),
            SUM(CASE WHEN ${isNew} THEN 1 ELSE 0 END), SUM(CASE WHEN ${isNew} THEN e.amount ELSE 0 END),
            SUM(CASE WHEN e.event = 'renewed' THEN 1 ELSE 0 END), SUM(CASE WHEN e.event = 'renewed' THEN e.amount ELSE 0 END),
            SUM(CASE WHEN e.event = 'trial_started' THEN 1 ELSE 0 END), SUM(CASE WHEN e.event = 'canceled' THEN 1 ELSE 0 END),
            SUM(CASE WHEN e.event = 'expired' THEN 1 ELSE 0 END)
       FROM ${tbl(db, 'subscription_events')} e
      WHERE e.site_id = ? AND e.time >= ? AND e.time < ?
      GROUP BY e.product_id, e.currency, e.gateway, e.country_code`,
    [siteId, day, siteId, day, nextDayStart(day, tz)],
    t,
  );
}

/** Recomputes the site's month of subscription figures starting at `month` as the sum of its days. */
async function aggregateMonth(db: Database, siteId: number, month: number, tz: string, t: Transaction): Promise<void> {
  const months = tbl(db, 'subscription_months');
  await db.execute(`DELETE FROM ${months} WHERE site_id = ? AND month = ?`, [siteId, month], t);
  await db.execute(
    `INSERT INTO ${months} (site_id, month, ${KEY}, ${MEASURES.join(', ')})
     SELECT site_id, ?, ${KEY}, ${MEASURES.map((m) => `SUM(${m})`).join(', ')} FROM ${tbl(db, 'subscription_days')}
      WHERE site_id = ? AND day >= ? AND day < ? GROUP BY site_id, ${KEY}`,
    [month, siteId, month, nextMonthStart(month, tz)],
    t,
  );
}

/**
 * Recomputes the site's daily subscription figures of `days` from the
 * stored events (`subscription_days`), then the months holding them
 * (`subscription_months`, the sums of their days).
 */
export async function aggregateDays(db: Database, siteId: number, days: readonly number[], tz: string, t: Transaction): Promise<void> {
  for (const day of days) await aggregateDay(db, siteId, day, tz, t);
  for (const month of new Set(days.map((d) => monthStart(d, tz)))) await aggregateMonth(db, siteId, month, tz, t);
}

/** Recomputes every month of the site's subscription figures from its days (the month table of an install made before it). */
export async function aggregateAllMonths(db: Database, siteId: number, tz: string, t: Transaction): Promise<number> {
  const [span] = await db.select<{ first: number | null; last: number | null }>(`SELECT MIN(day) AS first, MAX(day) AS last FROM ${tbl(db, 'subscription_days')} WHERE site_id = ?`, [siteId], t);
  if (span?.first === null || span?.first === undefined) return 0;
  let months = 0;
  for (let month = monthStart(num(span.first), tz); month <= num(span.last); month = nextMonthStart(month, tz), months++) await aggregateMonth(db, siteId, month, tz, t);
  return months;
}
