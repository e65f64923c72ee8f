import type { DataType } from 'sequelize';
import type { Migration } from '../../../core';

/**
 * The daily shop roll-ups the data routes read instead of the raw events
 * (README "Roll-ups"): per site-timezone day (`_days`) and per calendar
 * month, quarter and year (`_months`), money and order counts
 * (`ecommerce_order_*`), product figures (`ecommerce_product_*`), funnel
 * counts (`ecommerce_funnel_*`), product page views per page
 * (`ecommerce_page_*`) and the distinct visitors and carts of a
 * window (`ecommerce_reach_*`); the orders whose visitor had no visit on
 * their day (`ecommerce_unvisited_orders`); which days of each site are
 * folded (`ecommerce_fold_state`) and which folded days changed since
 * (`ecommerce_stale_days`). Every table has `site_id`, so removing a site
 * removes its roll-ups. The indexes let a fold find a visitor's or a cart's
 * earlier events.
 */
export const rollups: Migration = {
  name: '0005-rollups',
  async up({ db, queryInterface: qi, types: T }) {
    const money = { type: T.decimal(20, 6), allowNull: false, defaultValue: 0 };
    const count = { type: T.uint, allowNull: false, defaultValue: 0 };
    const key = (type: DataType) => ({ type, primaryKey: true });
    const site = key(T.int);
    const visitor = { country_code: key(T.string(2)), device: key(T.string(191)) };

    for (const span of ['day', 'month'] as const) {
      // Month tables hold months, quarters and years: `month` is the first day, `months` the length (1, 3, 12).
      const at: Record<string, ReturnType<typeof key>> = span === 'day' ? { day: key(T.bigint) } : { month: key(T.bigint), months: key(T.tinyint) };
      await qi.createTable(db.table(`ecommerce_order_${span}s`), {
        site_id: site,
        ...at,
        currency: key(T.string(3)),
        campaign_id: key(T.ref),
        ...visitor,
        orders: count,
        no_uid: count,
        sold: money,
        refunded: money,
        last_order: { type: T.bigint, allowNull: false, defaultValue: 0 },
      });
      await qi.createTable(db.table(`ecommerce_product_${span}s`), {
        site_id: site,
        ...at,
        kind: key(T.tinyint),
        product_id: key(T.bigint),
        currency: key(T.string(3)),
        source: key(T.exactString(191)),
        ...visitor,
        units: { type: T.bigint, allowNull: false, defaultValue: 0 },
        value: money,
        events: count,
        name: { type: T.string(255), allowNull: false, defaultValue: '' },
      });
      await qi.createTable(db.table(`ecommerce_funnel_${span}s`), {
        site_id: site,
        ...at,
        ...visitor,
        visits: count,
        views: count,
        carts: count,
        checkouts: count,
      });
      await qi.createTable(db.table(`ecommerce_page_${span}s`), {
        site_id: site,
        ...at,
        url: key(T.string(255)),
        ...visitor,
        views: count,
      });
      await qi.createTable(db.table(`ecommerce_reach_${span}s`), {
        site_id: site,
        ...at,
        kind: key(T.tinyint),
        variant: key(T.tinyint),
        ...visitor,
        prev_day: key(T.bigint),
        order_before: key(T.bigint),
        order_after: key(T.bigint),
        n: count,
      });
    }

    await qi.createTable(db.table('ecommerce_unvisited_orders'), {
      site_id: site,
      day: key(T.bigint),
      order_ref: key(T.ref),
      uid: { type: T.string(64), allowNull: false },
      country_code: { type: T.string(2), allowNull: false },
      device: { type: T.string(191), allowNull: false },
    });
    await qi.createTable(db.table('ecommerce_fold_state'), {
      site_id: site,
      timezone: { type: T.string(64), allowNull: false, defaultValue: '' },
      folded_from: { type: T.bigint, allowNull: false, defaultValue: 0 },
      folded_to: { type: T.bigint, allowNull: false, defaultValue: 0 },
    });
    await qi.createTable(db.table('ecommerce_stale_days'), { site_id: site, day: key(T.bigint) });

    const index = (table: string, fields: string[]) => qi.addIndex(db.table(table), fields, { name: `${db.table(table)}_${fields.join('_')}` });
    await index('ecommerce_events', ['site_id', 'uid', 'time']);
    await index('ecommerce_events', ['session_id', 'type', 'time']);
    await index('ecommerce_orders', ['currency']);
  },
};
