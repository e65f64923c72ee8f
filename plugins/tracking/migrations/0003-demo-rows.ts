import type { Migration } from '../../../core';

/**
 * What `svc demo` generated in the tracking plugin's tables, so that
 * `svc demo --remove` deletes exactly that: its sessions (their pageviews,
 * goal completions, searches and outbound links follow them) and the demo
 * goals it created.
 */
export const demoRows: Migration = {
  name: '0003-demo-rows',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.createTable(db.table('demo_rows'), {
      kind: { type: T.string(20), primaryKey: true },
      row_id: { type: T.ref, primaryKey: true },
    });
  },
};
