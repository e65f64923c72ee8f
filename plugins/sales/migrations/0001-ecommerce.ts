import type { Migration } from '../../../core';

/**
 * The ecommerce store: received event ids (idempotency), visitor events
 * (product views, add-to-cart, checkout visits), orders and their items, the
 * campaign names orders are attributed to, and subscriptions with their
 * events, state periods and the daily aggregation the dashboards read.
 * Money is DECIMAL; times are unix seconds.
 */
export const ecommerceTables: Migration = {
  name: '0001-ecommerce',
  async up({ db, queryInterface: qi, types: T }) {
    const index = (table: string, fields: string[], unique = false) =>
      qi.addIndex(db.table(table), fields, { name: `${db.table(table)}_${fields.join('_')}`, unique });
    const money = { type: T.decimal(20, 6), allowNull: false, defaultValue: 0 };

    await qi.createTable(db.table('ecommerce_received'), {
      event_id: { type: T.string(191), primaryKey: true },
      source: { type: T.string(32), allowNull: false },
      received: { type: T.bigint, allowNull: false },
    });

    await qi.createTable(db.table('ecommerce_events'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      type: { type: T.string(20), allowNull: false },
      source: { type: T.string(32), allowNull: false },
      uid: { type: T.string(64), allowNull: false, defaultValue: '' },
      session_id: { type: T.ref, allowNull: false, defaultValue: 0 },
      product_id: { type: T.bigint, allowNull: false, defaultValue: 0 },
      product_name: { type: T.string(255), allowNull: false, defaultValue: '' },
      quantity: { type: T.uint, allowNull: false, defaultValue: 0 },
      price: money,
      currency: { type: T.string(3), allowNull: false, defaultValue: '' },
      url: { type: T.string(255), allowNull: false, defaultValue: '' },
      time: { type: T.bigint, allowNull: false },
    });
    await index('ecommerce_events', ['type', 'time']);
    await index('ecommerce_events', ['time']);
    await index('ecommerce_events', ['product_id', 'time']);

    await qi.createTable(db.table('ecommerce_campaigns'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      name: { type: T.string(191), allowNull: false, unique: true },
    });

    await qi.createTable(db.table('ecommerce_orders'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      order_id: { type: T.string(64), allowNull: false },
      source: { type: T.string(32), allowNull: false },
      uid: { type: T.string(64), allowNull: false, defaultValue: '' },
      session_id: { type: T.ref, allowNull: false, defaultValue: 0 },
      campaign_id: { type: T.ref, allowNull: false, defaultValue: 0 },
      currency: { type: T.string(3), allowNull: false },
      total: money,
      time: { type: T.bigint, allowNull: false },
    });
    await index('ecommerce_orders', ['source', 'order_id'], true);
    await index('ecommerce_orders', ['time']);
    await index('ecommerce_orders', ['session_id']);
    await index('ecommerce_orders', ['uid', 'time']);

    await qi.createTable(db.table('ecommerce_order_items'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      order_ref: { type: T.ref, allowNull: false },
      product_id: { type: T.bigint, allowNull: false },
      product_name: { type: T.string(255), allowNull: false },
      quantity: { type: T.uint, allowNull: false },
      price: money,
      currency: { type: T.string(3), allowNull: false },
      time: { type: T.bigint, allowNull: false },
    });
    await index('ecommerce_order_items', ['order_ref']);
    await index('ecommerce_order_items', ['time']);

    await qi.createTable(db.table('subscriptions'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      source: { type: T.string(32), allowNull: false },
      subscription_id: { type: T.string(64), allowNull: false },
      product_id: { type: T.bigint, allowNull: false },
      product_name: { type: T.string(255), allowNull: false },
      amount: money,
      currency: { type: T.string(3), allowNull: false },
      billing_period: { type: T.string(8), allowNull: false },
      billing_interval: { type: T.uint, allowNull: false },
      mrr: money,
      gateway: { type: T.string(64), allowNull: false, defaultValue: '' },
      country_code: { type: T.string(2), allowNull: false, defaultValue: '' },
      status: { type: T.string(16), allowNull: false },
      started_at: { type: T.bigint, allowNull: false },
      first_paid_at: { type: T.bigint, allowNull: true },
    });
    await index('subscriptions', ['source', 'subscription_id'], true);
    await index('subscriptions', ['started_at']);

    await qi.createTable(db.table('subscription_events'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      subscription_ref: { type: T.ref, allowNull: false },
      event: { type: T.string(16), allowNull: false },
      product_id: { type: T.bigint, allowNull: false },
      product_name: { type: T.string(255), allowNull: false },
      amount: money,
      currency: { type: T.string(3), allowNull: false },
      billing_period: { type: T.string(8), allowNull: false },
      billing_interval: { type: T.uint, allowNull: false },
      gateway: { type: T.string(64), allowNull: false, defaultValue: '' },
      country_code: { type: T.string(2), allowNull: false, defaultValue: '' },
      time: { type: T.bigint, allowNull: false },
    });
    await index('subscription_events', ['subscription_ref', 'time']);
    await index('subscription_events', ['time']);

    await qi.createTable(db.table('subscription_periods'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      subscription_ref: { type: T.ref, allowNull: false },
      state: { type: T.string(10), allowNull: false },
      period_start: { type: T.bigint, allowNull: false },
      period_end: { type: T.bigint, allowNull: true },
      mrr: money,
      currency: { type: T.string(3), allowNull: false },
      product_id: { type: T.bigint, allowNull: false },
    });
    await index('subscription_periods', ['subscription_ref', 'state', 'period_start']);
    await index('subscription_periods', ['state', 'period_start']);

    await qi.createTable(db.table('subscription_days'), {
      day: { type: T.bigint, primaryKey: true },
      product_id: { type: T.bigint, primaryKey: true },
      currency: { type: T.string(3), primaryKey: true },
      gateway: { type: T.string(64), primaryKey: true },
      country_code: { type: T.string(2), primaryKey: true },
      events: { type: T.uint, allowNull: false, defaultValue: 0 },
      new_count: { type: T.uint, allowNull: false, defaultValue: 0 },
      new_revenue: money,
      renewal_count: { type: T.uint, allowNull: false, defaultValue: 0 },
      renewal_revenue: money,
      trial_count: { type: T.uint, allowNull: false, defaultValue: 0 },
      canceled_count: { type: T.uint, allowNull: false, defaultValue: 0 },
      expired_count: { type: T.uint, allowNull: false, defaultValue: 0 },
    });
  },
};
