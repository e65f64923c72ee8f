import { type MigratedDatabase, databaseBefore } from '../../../test/helpers/migrated-from-main';
import { reportMigrations } from '../migrations';

describe('reports of an install made before sites', () => {
  let m: MigratedDatabase;
  beforeAll(async () => {
    m = await databaseBefore('reports', reportMigrations, '0003-sites');
  });
  afterAll(() => m?.close());

  it('land with their delivery log on the default site', async () => {
    const { db } = m;
    await db.execute(
      `INSERT INTO mg_svc_reports (name, date_range, format, frequency, send_time, last_edit, enabled, scheduled, content, recipients) VALUES ('Weekly', 'last_7_days', 'html', 'weekly', '08:00', 1, 1, 1, '[]', '[]'), ('Monthly', 'last_30_days', 'html', 'monthly', '08:00', 2, 0, 0, '[]', '[]')`,
    );
    await db.execute(`INSERT INTO mg_svc_report_logs (report_id, queue_id, batch_id, status, message, time, date) VALUES (1, '2026-01-01', NULL, 'sent', '', 5, '2026-01-01'), (1, '2026-01-01', 1, 'sent', '', 5, '2026-01-01')`);
    expect(await m.upgrade()).toEqual(['reports/0003-sites']);
    expect(await db.select('SELECT name, site_id FROM mg_svc_reports ORDER BY ID')).toEqual([
      { name: 'Weekly', site_id: 1 },
      { name: 'Monthly', site_id: 1 },
    ]);
    expect(await db.select('SELECT batch_id, site_id FROM mg_svc_report_logs ORDER BY ID')).toEqual([
      { batch_id: null, site_id: 1 },
      { batch_id: 1, site_id: 1 },
    ]);
  });
});
