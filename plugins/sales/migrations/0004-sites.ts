import type { Migration, MigrationContext } from '../../../core';

/**
 * The columns of a site's subscription figures of one period starting at
 * `period` (`day` in subscription_days, `month` in subscription_months):
 * the keys, then the counts and money of the period.
 */
export function subscriptionFigures(T: MigrationContext['types'], period: 'day' | 'month') {
  const money = { type: T.decimal(20, 6), allowNull: false, defaultValue: 0 };
  const count = { type: T.uint, allowNull: false, defaultValue: 0 };
  return {
    site_id: { type: T.int, primaryKey: true },
    [period]: { type: T.bigint, primaryKey: true },
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
  };
}

/** Indexes whose reads filter by site: the old field list, led by `site_id` from now on. */
const SITE_LED: ReadonlyArray<[table: string, fields: string[], unique?: boolean]> = [
  ['ecommerce_events', ['type', 'time']],
  ['ecommerce_events', ['time']],
  ['ecommerce_events', ['product_id', 'time']],
  ['ecommerce_orders', ['source', 'order_id'], true],
  ['ecommerce_orders', ['time']],
  ['ecommerce_orders', ['uid', 'time']],
  ['ecommerce_order_items', ['time']],
  ['ecommerce_refunds', ['source', 'refund_id'], true],
  ['ecommerce_refunds', ['time']],
  ['ecommerce_refund_items', ['time']],
  ['subscriptions', ['source', 'subscription_id'], true],
  ['subscriptions', ['started_at']],
  ['subscription_events', ['time']],
  ['subscription_periods', ['state', 'period_start']],
];

/**
 * Every ecommerce row belongs to a site (`site_id`, existing rows on the
 * default site 1): order, refund and subscription ids are unique per site
 * and sender, and the daily subscription figures are kept per site (the
 * table is rebuilt, as a primary key cannot change in place on SQLite). The
 * received-event ids and campaign names stay install-wide.
 */
export const ecommerceSites: Migration = {
  name: '0004-sites',
  async up({ db, queryInterface: qi, types: T }) {
    const site = { type: T.int, allowNull: false, defaultValue: 1 };
    for (const table of new Set(SITE_LED.map(([table]) => table))) await qi.addColumn(db.table(table), 'site_id', site);
    for (const [table, fields, unique = false] of SITE_LED) {
      const name = db.table(table);
      await qi.removeIndex(name, `${name}_${fields.join('_')}`);
      await qi.addIndex(name, ['site_id', ...fields], { name: `${name}_site_${fields.join('_')}`, unique });
    }

    const days = db.table('subscription_days');
    const rebuilt = db.table('subscription_days_sited');
    const columns = Object.keys(await qi.describeTable(days));
    await qi.createTable(rebuilt, subscriptionFigures(T, 'day'));
    const list = columns.map(db.quote).join(', ');
    await db.execute(`INSERT INTO ${db.quote(rebuilt)} (site_id, ${list}) SELECT 1, ${list} FROM ${db.quote(days)}`);
    await qi.dropTable(days);
    await qi.renameTable(rebuilt, days);
  },
};
