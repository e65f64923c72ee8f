import { ManualClock } from '../../clock';
import type { Database } from '../../db/database';
import type { StatsFilter, StatsQuery, StatsRow } from '../types';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { NOW, TZ, at, loadTraffic } from './traffic';

/** 2026-01-12..14 of the traffic set: sessions S1..S5 hold its 9 pageviews outside 404 pages (S6 has only a 404). */
const CURRENT = { start: at('2026-01-12T00:00'), end: at('2026-01-15T00:00') };

/**
 * What the traffic set leaves out, set on its sessions in order (S1..S6): the
 * browser and OS versions, the screen class, and referrers with paths and `www.`.
 */
const EXTRA: Array<{ browserVersion: string; osVersion: string; screen: string; referrer?: string }> = [
  { browserVersion: 'Chrome 124', osVersion: 'Windows 10', screen: 'desktop' },
  { browserVersion: 'Safari 17', osVersion: 'iOS 17.4', screen: 'mobile' },
  { browserVersion: 'Safari 18', osVersion: 'iOS 17.4', screen: 'mobile', referrer: 'https://www.reddit.com/r/selfhosted/' },
  { browserVersion: 'Firefox 125', osVersion: '', screen: 'laptop', referrer: 'https://www.google.com/search?q=svc' },
  { browserVersion: 'Chrome 124', osVersion: 'Windows 11', screen: '' },
  { browserVersion: 'Chrome 124', osVersion: 'Android 14', screen: 'tablet' },
];

async function lookup(db: Database, table: string, name: string): Promise<number> {
  if (name === '') return 0;
  const q = db.quote(db.table(table));
  const [row] = await db.select<{ ID: number }>(`SELECT ID FROM ${q} WHERE name = ?`, [name]);
  return row ? Number(row.ID) : (await db.insert(`INSERT INTO ${q} (name) VALUES (?)`, [name])).id;
}

/** Rows of one dimension as `value -> figures`, so ties in the ranking do not matter. */
const byValue = (rows: StatsRow[], dimension: string) => Object.fromEntries(rows.map(({ [dimension]: value, ...figures }) => [String(value), figures]));

const GROUPED: Array<{ dimension: string; rows: Record<string, { sessions: number; pageviews: number; bounce_rate: number }> }> = [
  { dimension: 'entry_page', rows: {
    '/': { sessions: 3, pageviews: 7, bounce_rate: 0 },
    '/blog/post-1': { sessions: 1, pageviews: 1, bounce_rate: 100 },
    '/pricing': { sessions: 1, pageviews: 1, bounce_rate: 100 } } },
  { dimension: 'exit_page', rows: {
    '/blog/post-1': { sessions: 2, pageviews: 4, bounce_rate: 50 },
    '/pricing': { sessions: 3, pageviews: 5, bounce_rate: 33.33 } } },
  { dimension: 'browser_version', rows: {
    'Chrome 124': { sessions: 2, pageviews: 5, bounce_rate: 0 },
    'Safari 17': { sessions: 1, pageviews: 1, bounce_rate: 100 },
    'Safari 18': { sessions: 1, pageviews: 2, bounce_rate: 0 },
    'Firefox 125': { sessions: 1, pageviews: 1, bounce_rate: 100 } } },
  { dimension: 'os_version', rows: {
    'iOS 17.4': { sessions: 2, pageviews: 3, bounce_rate: 50 },
    'Windows 10': { sessions: 1, pageviews: 3, bounce_rate: 0 },
    'Windows 11': { sessions: 1, pageviews: 2, bounce_rate: 0 },
    '': { sessions: 1, pageviews: 1, bounce_rate: 100 } } },
  { dimension: 'screen', rows: {
    mobile: { sessions: 2, pageviews: 3, bounce_rate: 50 },
    desktop: { sessions: 1, pageviews: 3, bounce_rate: 0 },
    laptop: { sessions: 1, pageviews: 1, bounce_rate: 100 },
    '': { sessions: 1, pageviews: 2, bounce_rate: 0 } } },
  { dimension: 'referrer_domain', rows: {
    'google.com': { sessions: 2, pageviews: 4, bounce_rate: 50 },
    '': { sessions: 2, pageviews: 3, bounce_rate: 50 },
    'reddit.com': { sessions: 1, pageviews: 2, bounce_rate: 0 } } },
];

const f = (dimension: string, operator: StatsFilter['operator'], ...values: string[]): StatsFilter => ({ dimension, value: values[0]!, operator, values });

const FILTERED: Array<{ name: string; filters: StatsFilter[]; pageviews: number; sessions: number }> = [
  { name: 'entry page is /', filters: [f('entry_page', 'is', '/')], pageviews: 7, sessions: 3 },
  { name: 'exit page does not contain blog', filters: [f('exit_page', 'not_contains', 'blog')], pageviews: 5, sessions: 3 },
  { name: 'browser version is one of two', filters: [f('browser_version', 'is', 'Chrome 124', 'Firefox 125')], pageviews: 6, sessions: 3 },
  { name: 'OS version contains Windows', filters: [f('os_version', 'contains', 'Windows')], pageviews: 5, sessions: 2 },
  { name: 'screen is not mobile', filters: [f('screen', 'is_not', 'mobile')], pageviews: 6, sessions: 3 },
  { name: 'referring domain is google.com', filters: [{ dimension: 'referrer_domain', value: 'google.com' }], pageviews: 4, sessions: 2 },
  { name: 'referring domain contains redd', filters: [f('referrer_domain', 'contains', 'redd')], pageviews: 2, sessions: 1 },
];

describe('session dimensions: entry and exit pages, versions, screen sizes, referring domains', () => {
  let tk: TestKernel;
  const run = (q: Partial<StatsQuery>) =>
    tk.kernel.statistics.engine.run({ id: 'test_session_dims', siteId: 1, range: CURRENT, metrics: ['sessions', 'pageviews', 'bounce_rate'], groupBy: [], filters: [], status: '200', ...q });

  beforeAll(async () => {
    tk = await createTestKernel({ clock: new ManualClock(NOW), env: { SVC_TIMEZONE: TZ } });
    const db = tk.kernel.db;
    const ids = await loadTraffic(db);
    for (const [i, extra] of EXTRA.entries()) {
      await db.execute(
        `UPDATE ${db.quote(db.table('sessions'))} SET browser_version_id = ?, platform_version_id = ?, screen = ?${extra.referrer ? ', referrer = ?' : ''} WHERE ID = ?`,
        [await lookup(db, 'browser_versions', extra.browserVersion), await lookup(db, 'platform_versions', extra.osVersion), extra.screen, ...(extra.referrer ? [extra.referrer] : []), ids[i]],
      );
    }
  });
  afterAll(() => tk.close());

  const checks = (source: string) => {
    it.each(GROUPED)(`groups by $dimension, ${source}`, async ({ dimension, rows }) => {
      expect(byValue(await run({ groupBy: [dimension] }), dimension)).toEqual(rows);
    });
    it.each(FILTERED)(`$name, ${source}`, async ({ filters, pageviews, sessions }) => {
      expect(await run({ filters, metrics: ['pageviews', 'sessions'] })).toEqual([{ pageviews, sessions }]);
    });
    it(`keeps the full referrers of a domain apart, ${source}`, async () => {
      const rows = await run({ groupBy: ['referrer'], metrics: ['sessions'], filters: [{ dimension: 'referrer_domain', value: 'google.com' }] });
      expect(byValue(rows, 'referrer')).toEqual({ 'https://www.google.com/': { sessions: 1 }, 'https://www.google.com/search?q=svc': { sessions: 1 } });
    });
    it(`counts a session of 404 pages only under all statuses, ${source}`, async () => {
      const rows = await run({ groupBy: ['screen'], metrics: ['sessions'], status: 'all', filters: [{ dimension: 'screen', value: 'tablet' }] });
      expect(rows).toEqual([{ screen: 'tablet', sessions: 1 }]);
    });
  };

  describe('from raw hits', () => checks('from raw hits'));

  describe('with the days folded', () => {
    beforeAll(async () => {
      await tk.kernel.statistics.folder.foldPending();
    });
    checks('from the summaries');

    it('answers a grouped range from the summaries', async () => {
      const db = tk.kernel.db;
      const [row] = await db.select<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ${db.quote(db.table('summary_dims'))} WHERE dimension IN ('entry_page', 'exit_page', 'browser_version', 'os_version', 'screen', 'referrer_domain')`,
      );
      expect(Number(row!.n)).toBeGreaterThan(0);
      const table = db.quote(db.table('statistics'));
      const saved = await db.select(`SELECT * FROM ${table} WHERE time >= ? AND time < ?`, [at('2026-01-13T00:00'), at('2026-01-14T00:00')]);
      await db.execute(`DELETE FROM ${table} WHERE time >= ? AND time < ?`, [at('2026-01-13T00:00'), at('2026-01-14T00:00')]);
      try {
        // The 13th's raw hits are gone; the summaries still count S3 and S4 under their screen classes.
        expect(byValue(await run({ groupBy: ['screen'], metrics: ['sessions'] }), 'screen')).toEqual({ mobile: { sessions: 2 }, desktop: { sessions: 1 }, laptop: { sessions: 1 }, '': { sessions: 1 } });
      } finally {
        for (const row of saved) {
          const cols = Object.keys(row);
          await db.execute(`INSERT INTO ${table} (${cols.map(db.quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
        }
      }
    });
  });
});
