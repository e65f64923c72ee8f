import { definePlugin, ManualClock } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, count, pageview, rows, setOptions, track } from './helpers';

const knobs = { maxUnspaced: 0, scripts: null as string[] | null, patterns: null as string[] | null, window: 0 };
const probe = definePlugin({
  name: 'search-probe',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_search_max_unspaced_length', (n) => knobs.maxUnspaced || n);
    ctx.hooks.addFilter('svc_search_merge_window', (n) => knobs.window || n);
    ctx.hooks.addFilter('svc_search_allowed_scripts', (scripts) => knobs.scripts ?? scripts);
    ctx.hooks.addFilter('svc_search_injection_patterns', (patterns) => knobs.patterns ?? patterns);
  },
});

const START = Date.parse('2026-06-01T09:00:00Z');

describe('search terms (tracking.md §4.1, §7, §8.1)', () => {
  const clock = new ManualClock(START);
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [probe], clock, env: { SVC_DEBUG: '1' } });
  });
  afterAll(() => tk.close());

  /** Search links of a uid's pageviews, with their terms. */
  const links = async (uid: string) =>
    tk.kernel.db.select<{ search_term: string; results: number | null; statistic_id: number | null }>(
      `SELECT s.search_term, l.results, l.statistic_id FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics_searches'))} l
         JOIN ${tk.kernel.db.quote(tk.kernel.db.table('searches'))} s ON s.ID = l.search_id
         JOIN ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))} st ON st.ID = l.statistic_id WHERE st.uid = ? ORDER BY l.ID`,
      [uid],
    );
  const capture = (body: Record<string, unknown>) =>
    tk.client().post(`${tk.api}/track/search`, { json: body, headers: { 'x-forwarded-for': '8.8.8.8', 'user-agent': CHROME } });

  it('stores a page view search term as plain text, kept apart from the statistic columns', async () => {
    await track(tk, pageview('https://site.example/?s=red+shoes', 'searcher', { search_term: '  Red   shoes ', page_type: 'search' }));
    expect(await links('searcher')).toEqual([{ search_term: 'Red shoes', results: null, statistic_id: expect.any(Number) }]);
    await track(tk, pageview('https://site.example/?s=x', 'probe1', { search_term: '<script>alert(1)</script>' }));
    expect(await links('probe1')).toEqual([]);
  });

  it('links a search captured before the page view to that page view, with its result count', async () => {
    expect((await capture({ search_term: 'blue hat', results: 7 })).body.outcome).toEqual({ stored: true, linked: false });
    expect(await count(tk, 'statistics_searches', 'statistic_id IS NULL')).toBe(1);
    await track(tk, pageview('https://site.example/?s=blue+hat', 'hatter', { search_term: 'blue hat' }));
    expect(await links('hatter')).toEqual([{ search_term: 'blue hat', results: 7, statistic_id: expect.any(Number) }]);
    expect(await count(tk, 'statistics_searches', 'statistic_id IS NULL')).toBe(0);
  });

  it('merges a longer typed term into the recent shorter one of the same page view', async () => {
    await track(tk, pageview('https://site.example/live/', 'typist'));
    for (const term of ['sho', 'shoe', 'shoes']) {
      clock.advance(2);
      await capture({ search_term: term, results: term.length, uid: 'typist' });
    }
    expect(await links('typist')).toEqual([{ search_term: 'shoes', results: 5, statistic_id: expect.any(Number) }]);
    clock.advance(121);
    await capture({ search_term: 'shoes red', results: 1, uid: 'typist' });
    expect((await links('typist')).map((l) => l.search_term)).toEqual(['shoes', 'shoes red']);
    await capture({ search_term: 'socks', results: 3, uid: 'typist' });
    expect((await links('typist')).map((l) => l.search_term)).toEqual(['shoes', 'shoes red', 'socks']);
  });

  it('discards empty, spam, over-long and injection terms, through their filters', async () => {
    const outcome = async (term: string) => (await capture({ search_term: term, uid: 'typist' })).body.outcome;
    expect(await outcome('   ')).toEqual({ stored: false, reason: 'empty' });
    expect(await outcome('a'.repeat(31))).toEqual({ stored: false, reason: 'too long' });
    expect(await outcome('buy cheap https://pills.example now')).toEqual({ stored: false, reason: 'spam' });
    expect(await outcome('казино онлайн')).toEqual({ stored: false, reason: 'spam' });
    expect(await outcome("' OR 1=1 --")).toEqual({ stored: false, reason: 'injection' });
    expect(await outcome('1 UNION SELECT password FROM users')).toEqual({ stored: false, reason: 'injection' });
    expect(await outcome('café crème')).toEqual({ stored: true, linked: true });
    knobs.maxUnspaced = 5;
    expect(await outcome('toolongword')).toEqual({ stored: false, reason: 'too long' });
    knobs.maxUnspaced = 0;
    knobs.scripts = ['Latin', 'Cyrillic'];
    expect(await outcome('казино')).toEqual({ stored: true, linked: true });
    knobs.scripts = null;
    knobs.patterns = ['/forbidden/i'];
    expect(await outcome("' OR 1=1 --")).toEqual({ stored: true, linked: true });
    expect(await outcome('FORBIDDEN words')).toEqual({ stored: false, reason: 'injection' });
    knobs.patterns = null;
    expect((await capture({ search_term: 42 })).status).toBe(400);
  });

  it('applies the tracking exclusions to captured searches', async () => {
    await setOptions(tk, { ip_blocklist: '8.8.8.8' });
    expect((await capture({ search_term: 'blocked search' })).body.outcome).toEqual({ stored: false, reason: 'excluded' });
    await setOptions(tk, { ip_blocklist: '' });
    const bot = await tk.client().post(`${tk.api}/track/search`, { json: { search_term: 'bot search', user_agent: 'Googlebot/2.1' } });
    expect(bot.body.outcome).toEqual({ stored: false, reason: 'excluded' });
  });

  it('offers capture_search_and_posts and link_pending_search to other plugins', async () => {
    const service = tk.kernel.services.get('tracking')!;
    const posts = [{ id: 1 }, { id: 2 }];
    expect(await service.captureSearchAndPosts(posts, { s: 'service search' })).toBe(posts);
    const [pending] = await rows(tk, 'statistics_searches', 'statistic_id IS NULL');
    expect(pending!.results).toBe(2);
    await service.captureSearchAndPosts(posts, { search_term: 'counted search', found_rows: 40 });
    expect((await rows(tk, 'statistics_searches', 'statistic_id IS NULL')).map((r) => r.results)).toEqual([2, 40]);
    expect(await service.linkPendingSearch(0, { search_term: 'x' } as never)).toBeNull();
    expect(await service.linkPendingSearch(5, { search_term: '' } as never)).toBeNull();
  });

  it('removes pending searches nobody linked in the daily maintenance', async () => {
    clock.advance(25 * 3600);
    await tk.kernel.scheduler.runRecurring('svc_daily', clock.now(), true);
    expect(await count(tk, 'statistics_searches', 'statistic_id IS NULL')).toBe(0);
    expect(await count(tk, 'searches', 'search_term = ?', ['service search'])).toBe(0);
    expect(await count(tk, 'searches', 'search_term = ?', ['shoes'])).toBe(1);
  });
});
