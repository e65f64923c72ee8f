import type { Migration } from '../../../core';

/** Each dropped hit noted for its site; NULL for a hit of no known site (and for the rows made before sites). */
export const siteDrops: Migration = {
  name: '0004-site-drops',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('tracking_drops');
    await qi.addColumn(table, 'site_id', { type: T.int, allowNull: true });
  },
};
