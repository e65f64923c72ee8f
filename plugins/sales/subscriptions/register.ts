import type { SalesApp } from '../app';
import { num, tbl } from '../db';
import { aggregateAllMonths } from './daily';

/** Set once the monthly subscription sums hold every month of the daily ones. */
const MONTHS_OPTION = 'svc_sales_subscription_months';

/**
 * Adds up the monthly subscription sums (`subscription_months`) of every
 * site from its daily ones, once: an install that had daily figures before
 * the month table existed. From then on the days and their months are kept
 * together (subscriptions/daily.ts).
 */
export async function addUpSubscriptionMonths(app: SalesApp): Promise<void> {
  const { ctx } = app;
  if (await ctx.options.get<boolean>(MONTHS_OPTION, false)) return;
  const sites = await ctx.db.select<{ site_id: number }>(`SELECT DISTINCT site_id FROM ${tbl(ctx.db, 'subscription_days')}`);
  for (const { site_id: siteId } of sites) {
    const tz = await app.zoneOf(num(siteId));
    await ctx.db.transaction((t) => aggregateAllMonths(ctx.db, num(siteId), tz, t), { writes: true });
  }
  await ctx.options.set(MONTHS_OPTION, true);
}
