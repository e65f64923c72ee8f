import type { Migration } from '../../../core';

/**
 * The visitor's first-touch traffic source on orders, visitor events and
 * subscriptions (`traffic_source`, '' without a tracked visit), so sales can
 * be grouped by source; and the visitor uid of a subscription, which links
 * it to tracking as orders are linked. Rows stored before keep ''.
 */
export const trafficSource: Migration = {
  name: '0002-traffic-source',
  async up({ db, queryInterface: qi, types: T }) {
    // `Newsletter` and `newsletter` are two sources on every database.
    const source = { type: T.exactString(191), allowNull: false, defaultValue: '' };
    for (const table of ['ecommerce_orders', 'ecommerce_events', 'subscriptions']) await qi.addColumn(db.table(table), 'traffic_source', source);
    await qi.addColumn(db.table('subscriptions'), 'uid', { type: T.string(64), allowNull: false, defaultValue: '' });
  },
};
