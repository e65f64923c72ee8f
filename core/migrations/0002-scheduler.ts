import type { Migration } from '../db/migrator';

/** Single events and the claims of recurring runs (docs/adr/0003-scheduler-claims.md). */
export const schedulerTables: Migration = {
  name: '0002-scheduler',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.createTable(db.table('scheduled_events'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      hook: { type: T.string(100), allowNull: false },
      args: { type: T.longText, allowNull: false },
      args_hash: { type: T.string(64), allowNull: false },
      run_at: { type: T.bigint, allowNull: false },
      claimed_by: { type: T.string(64), allowNull: true },
      claimed_until: { type: T.bigint, allowNull: true },
      attempts: { type: T.int, allowNull: false, defaultValue: 0 },
      created: { type: T.bigint, allowNull: false },
    });
    await qi.addIndex(db.table('scheduled_events'), ['hook', 'args_hash'], {
      name: `${db.table('scheduled_events')}_hook_args`,
      unique: true,
    });
    await qi.addIndex(db.table('scheduled_events'), ['run_at'], { name: `${db.table('scheduled_events')}_run_at` });

    await qi.createTable(db.table('cron_runs'), {
      hook: { type: T.string(100), primaryKey: true },
      slot: { type: T.bigint, primaryKey: true },
      node: { type: T.string(64), allowNull: false },
      started: { type: T.bigint, allowNull: false },
      finished: { type: T.bigint, allowNull: true },
    });
  },
};
