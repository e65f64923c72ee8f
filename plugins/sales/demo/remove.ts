import type { Database } from '../../../core';
import { num, tbl } from '../db';
import { daysOf } from '../calendar';
import { aggregateDays } from '../subscriptions/daily';

/** The `source` of every row `svc demo` writes through ingestion, so that `svc demo --remove` finds exactly those. */
export const DEMO_SOURCE = 'demo';

export interface DemoShopRemoval {
  orders: number;
  subscriptions: number;
  events: number;
}

/**
 * Deletes the demo shop, in one transaction: its orders with their items and
 * refunds, visitor events, subscriptions with their events and periods, and the
 * event ids it was received under; then the daily subscription figures of
 * the days it touched are computed again from what is left.
 */
export function removeDemoShop(db: Database, timezone: string): Promise<DemoShopRemoval> {
  const demo = (table: string) => `SELECT ID FROM ${tbl(db, table)} WHERE source = ?`;
  return db.transaction(async (t) => {
    const times = await db.select<{ site_id: number; time: number }>(
      `SELECT DISTINCT site_id, time FROM ${tbl(db, 'subscription_events')} WHERE subscription_ref IN (${demo('subscriptions')})`,
      [DEMO_SOURCE],
      t,
    );
    for (const table of ['subscription_events', 'subscription_periods']) {
      await db.execute(`DELETE FROM ${tbl(db, table)} WHERE subscription_ref IN (${demo('subscriptions')})`, [DEMO_SOURCE], t);
    }
    const subscriptions = await db.execute(`DELETE FROM ${tbl(db, 'subscriptions')} WHERE source = ?`, [DEMO_SOURCE], t);
    for (const table of ['ecommerce_order_items', 'ecommerce_refund_items']) {
      await db.execute(`DELETE FROM ${tbl(db, table)} WHERE order_ref IN (${demo('ecommerce_orders')})`, [DEMO_SOURCE], t);
    }
    await db.execute(`DELETE FROM ${tbl(db, 'ecommerce_refunds')} WHERE source = ?`, [DEMO_SOURCE], t);
    const orders = await db.execute(`DELETE FROM ${tbl(db, 'ecommerce_orders')} WHERE source = ?`, [DEMO_SOURCE], t);
    const events = await db.execute(`DELETE FROM ${tbl(db, 'ecommerce_events')} WHERE source = ?`, [DEMO_SOURCE], t);
    await db.execute(`DELETE FROM ${tbl(db, 'ecommerce_received')} WHERE source = ?`, [DEMO_SOURCE], t);
    for (const siteId of new Set(times.map((r) => num(r.site_id)))) {
      const ofSite = times.filter((r) => num(r.site_id) === siteId).map((r) => num(r.time));
      await aggregateDays(db, siteId, daysOf(ofSite, timezone), timezone, t);
    }
    return { orders, subscriptions, events };
  }, { writes: true });
}
