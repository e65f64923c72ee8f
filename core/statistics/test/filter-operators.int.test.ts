import { ManualClock } from '../../clock';
import type { StatsFilter, StatsQuery } from '../types';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { NOW, TZ, at, loadTraffic } from './traffic';

/** 2026-01-12..14 of the traffic set: 9 pageviews outside 404 pages ('/' 3, '/pricing' 4, '/blog/post-1' 2) by A, B and C. */
const CURRENT = { start: at('2026-01-12T00:00'), end: at('2026-01-15T00:00') };

const f = (dimension: string, operator: StatsFilter['operator'], ...values: string[]): StatsFilter => ({ dimension, value: values[0]!, operator, values });

/** Filters with the pageviews, sessions and visitors they leave. */
const CASES: Array<{ name: string; filters: StatsFilter[]; pageviews: number; sessions: number; visitors: number }> = [
  { name: 'is one value', filters: [f('page_url', 'is', '/pricing')], pageviews: 4, sessions: 4, visitors: 3 },
  { name: 'is several values', filters: [f('page_url', 'is', '/', '/blog/post-1')], pageviews: 5, sessions: 4, visitors: 2 },
  { name: 'is not', filters: [f('page_url', 'is_not', '/pricing')], pageviews: 5, sessions: 4, visitors: 2 },
  { name: 'is not several values', filters: [f('page_url', 'is_not', '/pricing', '/')], pageviews: 2, sessions: 2, visitors: 2 },
  { name: 'contains', filters: [f('page_url', 'contains', 'pric')], pageviews: 4, sessions: 4, visitors: 3 },
  { name: 'contains several values', filters: [f('page_url', 'contains', 'blog', 'pric')], pageviews: 6, sessions: 5, visitors: 3 },
  { name: 'does not contain', filters: [f('page_url', 'not_contains', 'blog')], pageviews: 7, sessions: 4, visitors: 3 },
  { name: 'does not contain several values', filters: [f('page_url', 'not_contains', 'blog', 'pric')], pageviews: 3, sessions: 3, visitors: 2 },
  { name: 'contains matches _ and % literally', filters: [f('page_url', 'contains', '_', '%')], pageviews: 0, sessions: 0, visitors: 0 },
  { name: 'does not contain _ or % keeps every row', filters: [f('page_url', 'not_contains', '_', '%')], pageviews: 9, sessions: 5, visitors: 3 },
  { name: 'is not on a joined dimension', filters: [f('referrer', 'is_not', 'https://www.google.com/')], pageviews: 5, sessions: 3, visitors: 2 },
  { name: 'is not a country', filters: [f('country', 'is_not', 'NL')], pageviews: 3, sessions: 2, visitors: 1 },
  { name: 'two filters combine', filters: [f('page_url', 'contains', 'pric'), f('device', 'is', 'mobile')], pageviews: 1, sessions: 1, visitors: 1 },
  { name: 'negations combine', filters: [f('device', 'is_not', 'desktop'), f('page_url', 'not_contains', 'blog')], pageviews: 2, sessions: 1, visitors: 1 },
  { name: 'two filters on one dimension', filters: [f('page_url', 'contains', '/'), f('page_url', 'is_not', '/')], pageviews: 6, sessions: 5, visitors: 3 },
  // Goals 1 on C's and A's '/pricing' (13th, 14th): a negation keeps the pageviews without any goal.
  { name: 'goal is not', filters: [f('goal', 'is_not', '1')], pageviews: 7, sessions: 4, visitors: 2 },
  { name: 'goal is one of', filters: [f('goal', 'is', '1', '2')], pageviews: 2, sessions: 2, visitors: 2 },
  { name: 'goal does not contain', filters: [f('goal', 'not_contains', '2')], pageviews: 9, sessions: 5, visitors: 3 },
  { name: 'a plain filter', filters: [{ dimension: 'browser', value: 'Safari' }], pageviews: 3, sessions: 2, visitors: 1 },
];

describe('filter operators', () => {
  let tk: TestKernel;
  const run = (filters: StatsFilter[], extra: Partial<StatsQuery> = {}) =>
    tk.kernel.statistics.engine.run({ id: 'test_filters', siteId: 1, range: CURRENT, metrics: ['pageviews', 'sessions', 'visitors'], groupBy: [], filters, status: '200', ...extra });

  beforeAll(async () => {
    tk = await createTestKernel({ clock: new ManualClock(NOW), env: { SVC_TIMEZONE: TZ } });
    await loadTraffic(tk.kernel.db);
  });
  afterAll(() => tk.close());

  it.each(CASES)('$name, from raw hits', async ({ filters, pageviews, sessions, visitors }) => {
    expect(await run(filters)).toEqual([{ pageviews, sessions, visitors }]);
  });

  it('groups rows under an operator filter', async () => {
    const rows = await run([f('device', 'is_not', 'desktop')], { metrics: ['pageviews'], groupBy: ['page_url'] });
    expect(rows).toEqual([
      { page_url: '/', pageviews: 1 },
      { page_url: '/blog/post-1', pageviews: 1 },
      { page_url: '/pricing', pageviews: 1 },
    ]);
  });

  it('counts a pageview that completed several of the goals once', async () => {
    const db = tk.kernel.db;
    const goals = db.quote(db.table('goal_statistics'));
    const [hit] = await db.select<{ ID: number }>(`SELECT ID FROM ${db.quote(db.table('statistics'))} WHERE uid = 'C' AND page_url = '/pricing'`);
    await db.execute(`INSERT INTO ${goals} (statistic_id, goal_id) VALUES (?, 2)`, [hit!.ID]);
    try {
      expect(await run([f('goal', 'is', '1', '2')], { metrics: ['pageviews'] })).toEqual([{ pageviews: 2 }]);
      expect(await run([f('goal', 'is_not', '2')], { metrics: ['pageviews'] })).toEqual([{ pageviews: 8 }]);
    } finally {
      await db.execute(`DELETE FROM ${goals} WHERE statistic_id = ? AND goal_id = 2`, [hit!.ID]);
    }
  });

  describe('with the days folded', () => {
    beforeAll(async () => {
      await tk.kernel.statistics.folder.foldPending();
    });

    it.each(CASES)('$name, the same figures', async ({ filters, pageviews, sessions, visitors }) => {
      expect(await run(filters)).toEqual([{ pageviews, sessions, visitors }]);
    });

    it('answers folded days from what was folded (summaries for a plain filter, day blocks for operators) until the day is folded again', async () => {
      const db = tk.kernel.db;
      const table = db.quote(db.table('statistics'));
      const day = { start: at('2026-01-13T00:00'), end: at('2026-01-14T00:00') };
      const saved = await db.select(`SELECT * FROM ${table} WHERE time >= ? AND time < ?`, [day.start, day.end]);
      await db.execute(`DELETE FROM ${table} WHERE time >= ? AND time < ?`, [day.start, day.end]);
      const pageviews = async (filter: StatsFilter) => (await run([filter], { metrics: ['pageviews'] }))[0]!.pageviews;
      const answers = async () => [await pageviews({ dimension: 'page_url', value: '/pricing' }), await pageviews(f('page_url', 'contains', 'pricing')), await pageviews(f('page_url', 'is', '/pricing', '/nothing'))];
      try {
        // '/pricing' had 2 pageviews on the 13th: the fold still holds them, in the summaries and in the day block.
        expect(await answers()).toEqual([4, 4, 4]);
        await tk.kernel.statistics.folder.refold(1, day.start, day.start);
        expect(await answers()).toEqual([2, 2, 2]);
      } finally {
        for (const row of saved) {
          const cols = Object.keys(row);
          await db.execute(`INSERT INTO ${table} (${cols.map(db.quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
        }
        await tk.kernel.statistics.folder.refold(1, day.start, day.start);
      }
      expect(await answers()).toEqual([4, 4, 4]);
    });
  });
});
