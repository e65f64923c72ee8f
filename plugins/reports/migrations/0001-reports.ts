import type { Migration } from '../../../core';

/**
 * Reports and their delivery log with the spec's columns (§2.1, §2.3), plus
 * two working tables: each queue's recipient snapshot and delivery counts
 * (also the atomic "this queue exists" marker) and the per-report
 * duplicate-send guard.
 */
export const reportTables: Migration = {
  name: '0001-reports',
  async up({ db, queryInterface: qi, types: T }) {
    const reports = db.table('reports');
    await qi.createTable(reports, {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      name: { type: T.string(255), allowNull: false },
      date_range: { type: T.string(255), allowNull: false },
      format: { type: T.string(32), allowNull: false },
      frequency: { type: T.string(16), allowNull: false },
      fixed_end_date: { type: T.string(16), allowNull: false, defaultValue: '' },
      day_of_week: { type: T.string(16), allowNull: true },
      week_of_month: { type: T.int, allowNull: true },
      send_time: { type: T.string(16), allowNull: false },
      last_edit: { type: T.uint, allowNull: false },
      enabled: { type: T.bool, allowNull: false, defaultValue: false },
      scheduled: { type: T.bool, allowNull: false, defaultValue: false },
      content: { type: T.longText, allowNull: false },
      recipients: { type: T.longText, allowNull: false },
    });
    await qi.addIndex(reports, ['enabled', 'scheduled'], { name: `${reports}_active` });

    const logs = db.table('report_logs');
    await qi.createTable(logs, {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      report_id: { type: T.ref, allowNull: false },
      queue_id: { type: T.string(32), allowNull: false },
      batch_id: { type: T.uint, allowNull: true },
      status: { type: T.string(32), allowNull: false },
      message: { type: T.text, allowNull: false },
      time: { type: T.uint, allowNull: false },
      date: { type: T.string(10), allowNull: false },
    });
    // Batch entries are unique per queue; parent entries (batch_id NULL) are kept unique by the queue table.
    await qi.addIndex(logs, ['report_id', 'queue_id', 'batch_id'], { name: `${logs}_queue_batch`, unique: true });
    await qi.addIndex(logs, ['time'], { name: `${logs}_time` });

    const queues = db.table('report_queues');
    await qi.createTable(queues, {
      report_id: { type: T.ref, primaryKey: true },
      queue_id: { type: T.string(32), primaryKey: true },
      recipients: { type: T.longText, allowNull: false },
      sent: { type: T.int, allowNull: false, defaultValue: 0 },
      failed: { type: T.int, allowNull: false, defaultValue: 0 },
      created: { type: T.bigint, allowNull: false },
    });
    await qi.addIndex(queues, ['created'], { name: `${queues}_created` });

    await qi.createTable(db.table('report_guards'), {
      report_id: { type: T.ref, primaryKey: true },
      expires: { type: T.bigint, allowNull: false },
    });
  },
};
