import { type Database, connectDatabase } from '../../db/database';
import { runMigrations } from '../../db/migrator';
import { createMemoryLogger } from '../../logger';
import { type TestDatabase, createTestDatabase } from '../../../test/helpers/test-db';
import { coreMigrations } from '../index';

const SITE_MIGRATION = '0012-site-scoped-statistics';

describe('migration 0012: statistics of a database made before sites belong to the first site', () => {
  let database: TestDatabase;
  let db: Database;
  const t = (name: string) => db.quote(db.table(name));
  const insert = (table: string, row: Record<string, unknown>) =>
    db.execute(`INSERT INTO ${t(table)} (${Object.keys(row).map(db.quote).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`, Object.values(row));
  const sketch = Buffer.from([1, 2, 3]);
  const { logger } = createMemoryLogger('warn');

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await connectDatabase(database.url, 'mg_');
    await runMigrations(db, 'core', coreMigrations.slice(0, coreMigrations.findIndex((m) => m.name === SITE_MIGRATION)), logger);
    await insert('sessions', { uid: 'a', time: 100, last_time: 160, host: 'example.com' });
    await insert('statistics', { page_url: '/', time: 100, uid: 'a', session_id: 1 });
    await insert('statistics', { page_url: '/b', time: 160, uid: 'a', session_id: 1 });
    await insert('goals', { title: 'Signup', status: 'active' });
    await insert('goal_statistics', { statistic_id: 2, goal_id: 1 });
    const counts = { pageviews: 2, sessions: 1, bounces: 0, time_on_page: 60, conversions: 1 };
    const visitors = { visitors: 1, first_time_visitors: 1, converted_visitors: 1, visitor_sketch: sketch, first_time_sketch: sketch, converted_sketch: sketch };
    await insert('summary_days', { day: 0, status: 0, ...counts, ...visitors });
    await insert('summary_days_month', { day: 0, status: 0, ...counts, ...visitors });
    await insert('summary_dims', { dimension: 'page_url', status: 0, day: 0, value: '/', ...counts });
    await insert('summary_dims_month', { dimension: 'page_url', status: 0, day: 0, value: '/', ...counts });
    await insert('summary_dim_sketches', { dimension: 'goal', status: 0, day: 0, value: '1', ...visitors });
    await insert('summary_state', { day: 0, folded_at: 200, dirty: 0 });
    await runMigrations(db, 'core', coreMigrations, logger);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it.each(['sessions', 'statistics', 'goals', 'summary_days', 'summary_days_month', 'summary_dims', 'summary_dims_month', 'summary_dim_sketches', 'summary_state'])(
    'keeps every row of %s, on site 1',
    async (table) => {
      const rows = await db.select<{ site_id: number; n: number }>(`SELECT site_id, COUNT(*) AS n FROM ${t(table)} GROUP BY site_id`);
      expect(rows.map((r) => ({ site: Number(r.site_id), n: Number(r.n) }))).toEqual([{ site: 1, n: table === 'statistics' ? 2 : 1 }]);
    },
  );

  it('keeps the values of the summaries, sketches included', async () => {
    const [day] = await db.select<Record<string, unknown>>(`SELECT * FROM ${t('summary_days')}`);
    expect({ ...day, visitor_sketch: Buffer.from(day!.visitor_sketch as Buffer) }).toMatchObject({ pageviews: 2, time_on_page: 60, converted_visitors: 1, visitor_sketch: sketch });
    const [state] = await db.select<Record<string, unknown>>(`SELECT day, folded_at, dirty FROM ${t('summary_state')}`);
    expect(state).toEqual({ day: 0, folded_at: 200, dirty: 0 });
  });

  it('keys the summaries by site: the same day and value may exist once per site', async () => {
    await insert('summary_dims', { site_id: 2, dimension: 'page_url', status: 0, day: 0, value: '/', pageviews: 5 });
    await expect(insert('summary_dims', { site_id: 2, dimension: 'page_url', status: 0, day: 0, value: '/', pageviews: 5 })).rejects.toThrow();
    await insert('summary_state', { site_id: 2, day: 0, folded_at: 300 });
  });

  it('gives new rows the first site unless told otherwise', async () => {
    await insert('statistics', { page_url: '/c', time: 170, uid: 'a', session_id: 1 });
    const [row] = await db.select<{ site_id: number }>(`SELECT site_id FROM ${t('statistics')} WHERE page_url = '/c'`);
    expect(Number(row!.site_id)).toBe(1);
  });
});
