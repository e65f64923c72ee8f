import { DateTime } from 'luxon';
import type { Transaction } from 'sequelize';
import type { Database } from '../../../core';
import { nextDayStart } from '../calendar';
import { tbl } from '../db';

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
export async function aggregateDay(db: Database, siteId: number, day: number, tz: string, t: Transaction): Promise<void> {
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
