import type { Migration } from '../../../core';

/**
 * Hits that arrived but were not counted, for the onboarding panel: one row
 * per reason and node every few seconds at most, with how many hits it
 * stands for (`count`).
 */
export const recentDrops: Migration = {
  name: '0002-recent-drops',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('tracking_drops');
    await qi.createTable(table, {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      time: { type: T.bigint, allowNull: false },
      reason: { type: T.string(40), allowNull: false },
      page_url: { type: T.string(255), allowNull: false, defaultValue: '' },
      count: { type: T.uint, allowNull: false, defaultValue: 1 },
    });
    await qi.addIndex(table, ['time'], { name: `${table}_time` });
  },
};
