import type { Migration } from '../../../core';

/** UTM campaign fields per pageview that carried them (`{prefix}svc_campaigns`). */
export const campaignsTable: Migration = {
  name: '0001-campaigns',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('campaigns');
    await qi.createTable(table, {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      statistic_id: { type: T.ref, allowNull: false, unique: true },
      time: { type: T.bigint, allowNull: false },
      source: { type: T.string(255), allowNull: false, defaultValue: '' },
      medium: { type: T.string(255), allowNull: false, defaultValue: '' },
      campaign: { type: T.string(255), allowNull: false, defaultValue: '' },
      term: { type: T.string(255), allowNull: false, defaultValue: '' },
      content: { type: T.string(255), allowNull: false, defaultValue: '' },
    });
    await qi.addIndex(table, ['time'], { name: `${table}_time` });
  },
};
