import type { Migration } from '../../../core';

/**
 * Reports and their delivery log belong to a site (`site_id`, existing rows
 * on the default site 1); the list and the scheduler read one site's
 * reports, the log list one site's entries. Queues, sends and guards are
 * keyed by the report, whose site they share.
 */
export const reportSites: Migration = {
  name: '0003-sites',
  async up({ db, queryInterface: qi, types: T }) {
    const site = { type: T.int, allowNull: false, defaultValue: 1 };
    const reports = db.table('reports');
    await qi.addColumn(reports, 'site_id', site);
    await qi.removeIndex(reports, `${reports}_active`);
    await qi.addIndex(reports, ['site_id', 'enabled', 'scheduled'], { name: `${reports}_site_active` });

    const logs = db.table('report_logs');
    await qi.addColumn(logs, 'site_id', site);
    await qi.addIndex(logs, ['site_id', 'time'], { name: `${logs}_site_time` });
  },
};
