import type { Migration } from '../../../core';

/**
 * The monthly sums of the daily subscription figures (`subscription_months`,
 * one row per site, month, product, currency, gateway and country), kept
 * with the days, so a window reads the months it holds whole from them. An
 * install that had days before adds its months up when the plugin starts.
 */
export const subscriptionMonths: Migration = {
  name: '0006-subscription-months',
  async up({ db, queryInterface: qi, types: T }) {
    const money = { type: T.decimal(20, 6), allowNull: false, defaultValue: 0 };
    const count = { type: T.uint, allowNull: false, defaultValue: 0 };
    await qi.createTable(db.table('subscription_months'), {
      site_id: { type: T.int, primaryKey: true },
      month: { type: T.bigint, primaryKey: true },
      product_id: { type: T.bigint, primaryKey: true },
      currency: { type: T.string(3), primaryKey: true },
      gateway: { type: T.string(64), primaryKey: true },
      country_code: { type: T.string(2), primaryKey: true },
      events: count,
      new_count: count,
      new_revenue: money,
      renewal_count: count,
      renewal_revenue: money,
      trial_count: count,
      canceled_count: count,
      expired_count: count,
    });
  },
};
