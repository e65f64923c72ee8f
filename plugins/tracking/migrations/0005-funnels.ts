import type { Migration } from '../../../core';

/** Funnels of each site: a name and 2-8 ordered steps (JSON: `{ page }` patterns with `*`, or `{ goal }` ids). */
export const funnels: Migration = {
  name: '0005-funnels',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('funnels');
    await qi.createTable(table, {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      site_id: { type: T.int, allowNull: false },
      name: { type: T.string(190), allowNull: false },
      steps: { type: T.text, allowNull: false },
      date_created: { type: T.bigint, allowNull: false },
      date_updated: { type: T.bigint, allowNull: false },
    });
    await qi.addIndex(table, ['site_id'], { name: `${table}_site` });
  },
};
