import { ManualClock } from '../../clock';
import type { StatsQuery } from '../types';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { refoldDaysWithHits } from '../../migrations/0010-statistics-conversion-sketches';
import { NOW, TZ, at, insertPageview, insertSession, loadTraffic } from './traffic';

const range = (from: string, to: string) => ({ start: at(`${from}T00:00`), end: at(`${to}T00:00`) });

/** Queries whose answers must not change when days come from the summaries. */
const QUERIES: Array<Omit<StatsQuery, 'id' | 'siteId'>> = [
  { range: range('2026-01-09', '2026-01-21'), metrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'avg_time_on_page', 'avg_session_duration', 'first_time_visitors', 'conversions', 'conversion_rate'], groupBy: [], filters: [], status: '200' },
  { range: range('2026-01-12', '2026-01-15'), metrics: ['visitors', 'pageviews', 'bounces'], groupBy: ['day'], filters: [], status: '200' },
  { range: range('2026-01-05', '2026-01-19'), metrics: ['visitors', 'first_time_visitors', 'pageviews'], groupBy: ['week'], filters: [], status: 'all' },
  { range: range('2026-01-12', '2026-01-15'), metrics: ['pageviews', 'visitors'], groupBy: [], filters: [], status: '404' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['pageviews', 'sessions', 'bounce_rate', 'avg_time_on_page'], groupBy: ['page_url'], filters: [], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['sessions', 'pageviews'], groupBy: ['referrer'], filters: [], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['sessions'], groupBy: ['device'], filters: [], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['pageviews', 'conversions'], groupBy: ['day'], filters: [{ dimension: 'country', value: 'NL' }], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['pageviews'], groupBy: ['page_url'], filters: [], status: '404' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['pageviews', 'sessions'], groupBy: ['browser'], filters: [{ dimension: 'browser', value: 'Chrome' }], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['conversions', 'pageviews'], groupBy: ['goal'], filters: [], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['visitors', 'sessions', 'conversions', 'first_time_visitors'], groupBy: ['goal'], filters: [], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['visitors', 'conversion_rate'], groupBy: [], filters: [{ dimension: 'goal', value: '1' }], status: 'all' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['conversion_rate', 'visitors'], groupBy: ['day'], filters: [], status: '200' },
  // December is a whole folded month: its dimension rows come from the monthly roll-ups.
  { range: range('2025-11-20', '2026-01-21'), metrics: ['pageviews', 'sessions', 'bounce_rate'], groupBy: ['page_url'], filters: [], status: '200' },
  { range: range('2025-12-01', '2026-01-21'), metrics: ['pageviews'], groupBy: ['month', 'device'], filters: [], status: 'all' },
  { range: range('2025-12-01', '2026-01-01'), metrics: ['pageviews'], groupBy: [], filters: [{ dimension: 'page_url', value: '/december' }], status: '200' },
  { range: range('2025-11-20', '2026-01-21'), metrics: ['visitors', 'first_time_visitors', 'pageviews', 'bounce_rate', 'conversion_rate'], groupBy: [], filters: [], status: 'all' },
  { range: range('2025-12-01', '2026-01-21'), metrics: ['visitors', 'pageviews'], groupBy: ['month'], filters: [], status: '200' },
  // What the summaries cannot answer comes from the day blocks of folded days.
  { range: range('2026-01-09', '2026-01-21'), metrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'first_time_visitors', 'conversion_rate', 'avg_session_duration'], groupBy: ['page_url'], filters: [{ dimension: 'country', value: 'NL', operator: 'is_not', values: ['NL'] }], status: '200' },
  { range: range('2026-01-12', '2026-01-15'), metrics: ['visitors', 'pageviews'], groupBy: ['hour'], filters: [], status: '200' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['pageviews', 'visitors', 'sessions'], groupBy: ['device', 'page_url'], filters: [], status: 'all' },
  { range: range('2026-01-09', '2026-01-21'), metrics: ['visitors', 'conversions', 'conversion_rate', 'bounces'], groupBy: ['day'], filters: [{ dimension: 'referrer', value: 'google', operator: 'contains', values: ['google'] }, { dimension: 'page_url', value: '/', operator: 'is_not', values: ['/'] }], status: '200' },
  { range: range('2025-11-20', '2026-01-21'), metrics: ['visitors', 'pageviews', 'first_time_visitors'], groupBy: ['entry_page'], filters: [{ dimension: 'browser', value: 'Chrome', operator: 'is', values: ['Chrome', 'Safari'] }], status: '200' },
];

describe('daily summaries', () => {
  let tk: TestKernel;
  let clock: ManualClock;
  const stats = () => tk.kernel.statistics;
  const both = async (q: Omit<StatsQuery, 'id' | 'siteId'>) => ({
    auto: await stats().engine.run({ ...q, siteId: 1, id: 'test_auto' }),
    raw: await stats().engine.run({ ...q, siteId: 1, id: 'test_raw', mode: 'raw' }),
  });
  const expectAgreement = async () => {
    for (const q of QUERIES) {
      const { auto, raw } = await both(q);
      expect({ q, rows: auto }).toEqual({ q, rows: raw });
    }
  };
  const summaryRows = async () =>
    Number((await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${tk.kernel.db.quote(tk.kernel.db.table('summary_days'))}`))[0]!.n);

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    tk = await createTestKernel({ clock, env: { SVC_TIMEZONE: TZ } });
    await loadTraffic(tk.kernel.db);
    for (const when of ['2025-12-01T10:00', '2025-12-24T18:00', '2025-12-31T23:59']) {
      await insertPageview(tk.kernel.db, await insertSession(tk.kernel.db, `dec-${when}`, at(when)), `dec-${when}`, at(when), { url: '/december', top: 30 });
    }
  });
  afterAll(() => tk.close());

  it('agrees with the raw hits after folding, and uses the summaries', async () => {
    const folded = await stats().folder.foldPending();
    expect(folded.length).toBe(50);
    expect(await summaryRows()).toBeGreaterThan(0);
    await expectAgreement();
    const [rollups] = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${tk.kernel.db.quote(tk.kernel.db.table('summary_dims_month'))} WHERE value = '/december'`);
    expect(Number(rollups!.n)).toBe(1);
    expect(stats().blocks.cached(1).length).toBeGreaterThan(0);
    const [december] = await tk.kernel.db.select<{ pageviews: number; visitors: number }>(
      `SELECT pageviews, visitors FROM ${tk.kernel.db.quote(tk.kernel.db.table('summary_days_month'))} WHERE day = ? AND status = 0`,
      [at('2025-12-01T00:00')],
    );
    expect({ pageviews: Number(december!.pageviews), visitors: Number(december!.visitors) }).toEqual({ pageviews: 3, visitors: 3 });
    // Remove the raw hits of a folded day: the auto answer still counts them, so it came from the summaries.
    const db = tk.kernel.db;
    const saved = await db.select(`SELECT * FROM ${db.quote(db.table('statistics'))} WHERE time >= ? AND time < ?`, [at('2026-01-10T00:00'), at('2026-01-11T00:00')]);
    await db.execute(`DELETE FROM ${db.quote(db.table('statistics'))} WHERE time >= ? AND time < ?`, [at('2026-01-10T00:00'), at('2026-01-11T00:00')]);
    const { auto, raw } = await both(QUERIES[0]!);
    expect(Number(auto[0]!.pageviews) - Number(raw[0]!.pageviews)).toBe(1);
    for (const row of saved) {
      const cols = Object.keys(row);
      await db.execute(`INSERT INTO ${db.quote(db.table('statistics'))} (${cols.map(db.quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
    }
  });

  it('re-folds a day a late hit landed on', async () => {
    const db = tk.kernel.db;
    const [session] = await db.select<{ ID: number }>(`SELECT ID FROM ${db.quote(db.table('sessions'))} WHERE uid = 'C'`);
    const time = at('2026-01-13T16:00');
    const id = await insertPageview(db, Number(session!.ID), 'C', time, { url: '/late', top: 12 });
    await tk.kernel.hooks.doAction('svc_after_create_statistic', id, { page_url: '/late', parameters: '', fragment: '', page_id: 0, page_type: 'page', time, uid: 'C', time_on_page: 12, session_id: Number(session!.ID) });
    await expectAgreement();
    const refolded = await stats().folder.foldPending();
    expect(refolded).toEqual([at('2026-01-13T00:00')]);
    await expectAgreement();
  });

  it('folds yesterday again within the grace period, catching time-on-page updates', async () => {
    clock.set('2026-01-21T00:30:00+01:00');
    expect(await stats().folder.foldPending()).toEqual([at('2026-01-20T00:00')]);
    const db = tk.kernel.db;
    const session = await insertSession(db, 'N', at('2026-01-20T23:50'));
    const id = await insertPageview(db, session, 'N', at('2026-01-20T23:50'), { url: '/night', top: 5 });
    await db.execute(`UPDATE ${db.quote(db.table('statistics'))} SET time_on_page = 65 WHERE ID = ?`, [id]);
    clock.set('2026-01-21T01:30:00+01:00');
    expect(await stats().folder.foldPending()).toEqual([at('2026-01-20T00:00')]);
    await expectAgreement();
    clock.set('2026-01-21T03:30:00+01:00');
    expect(await stats().folder.foldPending()).toEqual([at('2026-01-20T00:00')]);
    clock.set('2026-01-21T04:30:00+01:00');
    expect(await stats().folder.foldPending()).toEqual([]);
  });

  it('rebuilds every finished day', async () => {
    await tk.kernel.db.execute(`DELETE FROM ${tk.kernel.db.quote(tk.kernel.db.table('summary_days'))}`);
    const progress: number[] = [];
    expect(await stats().folder.rebuild((done) => progress.push(done))).toBe(51);
    expect(progress).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    await expectAgreement();
  });

  it('folds again, after the conversion sketches arrived, the days whose raw hits are still there', async () => {
    const db = tk.kernel.db;
    const state = db.quote(db.table('summary_state'));
    await db.execute(`UPDATE ${state} SET dirty = 0`);
    // 2026-01-10 lost its raw hits (as retention would): it keeps its summaries untouched.
    const gone = await db.select(`SELECT * FROM ${db.quote(db.table('statistics'))} WHERE time >= ? AND time < ?`, [at('2026-01-10T00:00'), at('2026-01-11T00:00')]);
    await db.execute(`DELETE FROM ${db.quote(db.table('statistics'))} WHERE time >= ? AND time < ?`, [at('2026-01-10T00:00'), at('2026-01-11T00:00')]);
    await refoldDaysWithHits(db);
    const dirty = (await db.select<{ day: number }>(`SELECT day FROM ${state} WHERE dirty = 1 ORDER BY day`)).map((r) => Number(r.day));
    const withHits = (await db.select<{ t: number }>(`SELECT time AS t FROM ${db.quote(db.table('statistics'))}`)).map((r) => Number(r.t));
    expect(dirty.length).toBeGreaterThan(3);
    expect(dirty).not.toContain(at('2026-01-10T00:00'));
    expect(dirty).toContain(at('2026-01-11T00:00'));
    for (const day of dirty) expect(withHits.some((t) => t >= day && t < day + 86_400)).toBe(true);
    for (const row of gone) {
      const cols = Object.keys(row);
      await db.execute(`INSERT INTO ${db.quote(db.table('statistics'))} (${cols.map(db.quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
    }
    await stats().folder.foldPending();
    await expectAgreement();
  });

  it('prunes raw hits past the retention period on svc_daily and keeps the summaries', async () => {
    const before = await stats().engine.run({ ...QUERIES[0]!, siteId: 1, id: 'before' });
    await tk.kernel.settings.save({ statistics_retention_days: '9' });
    expect((await tk.kernel.settings.save({ statistics_retention_days: '-1' })).saved).toBe(false);
    await tk.kernel.hooks.doAction('svc_daily');
    const db = tk.kernel.db;
    const [oldest] = await db.select<{ t: number }>(`SELECT MIN(time) AS t FROM ${db.quote(db.table('statistics'))}`);
    expect(Number(oldest!.t)).toBeGreaterThanOrEqual(at('2026-01-12T00:00'));
    const [orphans] = await db.select<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${db.quote(db.table('goal_statistics'))} g WHERE NOT EXISTS (SELECT 1 FROM ${db.quote(db.table('statistics'))} s WHERE s.ID = g.statistic_id)`,
    );
    expect(Number(orphans!.n)).toBe(0);
    const [blocks] = await db.select<{ first: number }>(`SELECT MIN(day) AS first FROM ${db.quote(db.table('summary_blocks'))}`);
    expect(Number(blocks!.first)).toBeGreaterThanOrEqual(at('2026-01-11T00:00'));
    expect(await stats().engine.run({ ...QUERIES[0]!, siteId: 1, id: 'after' })).toEqual(before);
  });
});
