import type { Migration } from '../../../core';

/**
 * Share tokens (§2.5). `report_key` repeats `report_id` for story links and is
 * NULL for dashboard links, so a unique index keeps one token per report even
 * when two app nodes create it at the same moment.
 */
export const shareTokensTable: Migration = {
  name: '0001-share-tokens',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('share_tokens');
    await qi.createTable(table, {
      token: { type: T.string(32), primaryKey: true },
      report_id: { type: T.ref, allowNull: false, defaultValue: 0 },
      report_key: { type: T.ref, allowNull: true },
      tab: { type: T.string(32), allowNull: false },
      view_query: { type: T.text, allowNull: false },
      permissions: { type: T.text, allowNull: false },
      shared_tabs: { type: T.text, allowNull: false },
      initial_state: { type: T.text, allowNull: false },
      created: { type: T.bigint, allowNull: false },
      expires: { type: T.bigint, allowNull: false },
    });
    await qi.addIndex(table, ['report_key'], { name: `${table}_report`, unique: true });
    await qi.addIndex(table, ['expires'], { name: `${table}_expires` });
  },
};
