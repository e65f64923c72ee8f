import type { Migration } from '../../../core';

/**
 * One row per recipient of a queue: claimed (`sending`, with the claiming
 * node and a lease) before the mail goes out, then `sent` or `failed`. A node
 * that takes over a batch skips the recipients already done, so each one
 * gets the report once even when the node sending it dies mid-batch.
 */
export const reportSends: Migration = {
  name: '0002-report-sends',
  async up({ db, queryInterface: qi, types: T }) {
    const sends = db.table('report_sends');
    await qi.createTable(sends, {
      report_id: { type: T.ref, primaryKey: true },
      queue_id: { type: T.string(32), primaryKey: true },
      recipient: { type: T.string(255), primaryKey: true },
      batch_id: { type: T.uint, allowNull: false },
      status: { type: T.string(16), allowNull: false },
      message: { type: T.text, allowNull: false },
      node: { type: T.string(64), allowNull: false },
      lease_until: { type: T.bigint, allowNull: false },
      time: { type: T.bigint, allowNull: false },
    });
    await qi.addIndex(sends, ['report_id', 'queue_id', 'batch_id'], { name: `${sends}_batch` });
    await qi.addIndex(sends, ['time'], { name: `${sends}_time` });
  },
};
