import { ManualClock, type StatsQuery } from '../../../../core';
import type { HttpClient } from '../../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import { statisticsTab } from './tab-plugin';
import { at } from '../../../../test/helpers/time';

const DAY = { date_start: '2026-03-02', date_end: '2026-03-03' };

/**
 * Three visitors on 2 and 3 March 2026 (UTC):
 * - `fan` in two sessions sees the pricing page three times (goal 1 each time) and signs up twice (goal 2);
 * - `one` sees pricing once (goal 1) and signs up once (goal 3, counted by page views);
 * - `none` only reads the blog.
 * 5 sessions (fan 2, one 1, none 2), 9 page views.
 */
describe('goal conversions counted by their own metric', () => {
  let tk: TestKernel;
  let api: HttpClient;
  const data = async (path: string, query: Record<string, unknown>) => (await api.get(`${tk.api}/data/${path}`, { query })).body.data;

  beforeAll(async () => {
    tk = await createTestKernel({ inline: [statisticsTab], clock: new ManualClock('2026-03-10T12:00:00Z') });
    const db = tk.kernel.db;
    const q = (t: string) => db.quote(db.table(t));
    await db.execute(`INSERT INTO ${q('goals')} (ID, title, type, status, url, conversion_metric) VALUES (1, 'Viewed pricing', 'visits', 'active', '/pricing', 'visitors')`);
    await db.execute(`INSERT INTO ${q('goals')} (ID, title, type, status, selector, conversion_metric) VALUES (2, 'Signed up', 'clicks', 'active', '#signup', 'sessions')`);
    await db.execute(`INSERT INTO ${q('goals')} (ID, title, type, status, selector, conversion_metric) VALUES (3, 'Downloaded', 'clicks', 'active', '#download', 'pageviews')`);
    const sessions: Array<{ uid: string; start: string; pages: Array<{ url: string; goals?: number[] }> }> = [
      { uid: 'fan', start: '2026-03-02T10:00:00', pages: [{ url: '/pricing', goals: [1] }, { url: '/pricing', goals: [1, 2] }] },
      { uid: 'fan', start: '2026-03-03T09:00:00', pages: [{ url: '/pricing', goals: [1, 2] }] },
      { uid: 'one', start: '2026-03-02T11:00:00', pages: [{ url: '/pricing', goals: [1] }, { url: '/docs', goals: [3] }] },
      { uid: 'none', start: '2026-03-02T12:00:00', pages: [{ url: '/blog' }, { url: '/blog/a' }] },
      { uid: 'none', start: '2026-03-03T12:00:00', pages: [{ url: '/blog' }, { url: '/' }] },
    ];
    for (const s of sessions) {
      const start = at(s.start);
      const { id: session } = await db.insert(`INSERT INTO ${q('sessions')} (uid, time, last_time, referrer, bounce) VALUES (?, ?, ?, '', 0)`, [s.uid, start, start + 600]);
      for (const [i, page] of s.pages.entries()) {
        const { id } = await db.insert(
          `INSERT INTO ${q('statistics')} (page_url, page_type, time, uid, time_on_page, session_id) VALUES (?, 'page', ?, ?, 10, ?)`,
          [page.url, start + i * 60, s.uid, session],
        );
        for (const goal of page.goals ?? []) await db.execute(`INSERT INTO ${q('goal_statistics')} (statistic_id, goal_id) VALUES (?, ?)`, [id, goal]);
      }
    }
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    api = tk.client().withBasic('admin', (await tk.kernel.appPasswords.create(admin, 'tests')).password);
  });
  afterAll(() => tk.close());

  const goals = [
    // Four completions by two visitors: two conversions of three visitors.
    { goal_id: 1, title: 'Viewed pricing', type: 'visits', status: 'active', conversion_metric: 'visitors', conversions: 2, conversion_rate: 66.67 },
    // Two completions in two sessions of five.
    { goal_id: 2, title: 'Signed up', type: 'clicks', status: 'active', conversion_metric: 'sessions', conversions: 2, conversion_rate: 40 },
    // One page view of nine.
    { goal_id: 3, title: 'Downloaded', type: 'clicks', status: 'active', conversion_metric: 'pageviews', conversions: 1, conversion_rate: 11.11 },
  ];

  it('counts a visitor goal once per visitor, a session goal once per session, a page-view goal per page view', async () => {
    expect(await data('goals', DAY)).toEqual(goals);
  });

  it('gives the same answer from the daily summaries, and a conversion rate of converted visitors that never passes 100 %', async () => {
    await tk.kernel.statistics.folder.foldPending();
    expect(await data('goals', DAY)).toEqual(goals);
    const query: Omit<StatsQuery, 'id'> = { siteId: 1, range: { start: at('2026-03-02T00:00:00'), end: at('2026-03-04T00:00:00') }, metrics: ['visitors', 'conversions', 'conversion_rate'], groupBy: [], filters: [], status: '200' };
    const expected = [{ visitors: 3, conversions: 7, conversion_rate: 66.67 }];
    expect(await tk.kernel.statistics.engine.run({ ...query, id: 'auto' })).toEqual(expected);
    expect(await tk.kernel.statistics.engine.run({ ...query, id: 'raw', mode: 'raw' })).toEqual(expected);
    const byDay = await tk.kernel.statistics.engine.run({ ...query, id: 'days', groupBy: ['day'], metrics: ['conversion_rate'] });
    expect(byDay.map((r) => r.conversion_rate)).toEqual([66.67, 50]);
    const pricing = await tk.kernel.statistics.engine.run({ ...query, id: 'goal', metrics: ['visitors', 'sessions', 'conversions'], groupBy: ['goal'] });
    expect(pricing).toEqual([
      { goal: '1', visitors: 2, sessions: 3, conversions: 4 },
      { goal: '2', visitors: 1, sessions: 2, conversions: 2 },
      { goal: '3', visitors: 1, sessions: 1, conversions: 1 },
    ]);
  });

  it('keeps the figures once the raw hits are gone (retention): they come from the summaries', async () => {
    const db = tk.kernel.db;
    for (const table of ['goal_statistics', 'statistics', 'sessions']) await db.execute(`DELETE FROM ${db.quote(db.table(table))}`);
    expect(await data('goals', DAY)).toEqual(goals);
    const query: Omit<StatsQuery, 'id'> = { siteId: 1, range: { start: at('2026-03-02T00:00:00'), end: at('2026-03-04T00:00:00') }, metrics: ['conversion_rate'], groupBy: [], filters: [], status: '200' };
    expect(await tk.kernel.statistics.engine.run({ ...query, id: 'gone' })).toEqual([{ conversion_rate: 66.67 }]);
    const pricing = await tk.kernel.statistics.engine.run({ ...query, id: 'pricing', metrics: ['visitors'], filters: [{ dimension: 'goal', value: '1' }] });
    expect(pricing).toEqual([{ visitors: 2 }]);
  });
});
