import { DEFAULT_SITE_ID, ManualClock, type Site } from '../../../../core';
import type { HttpClient } from '../../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import { CHROME, count, heartbeat, pageview, track } from '../../test/helpers';

const START = Date.parse('2026-05-04T08:00:00Z');
const DAY = { date_start: '2026-05-04', date_end: '2026-05-04' };
const GOOGLE = 'https://www.google.com/';

describe('funnels: definitions per site, each step’s visitors in order within a session', () => {
  const clock = new ManualClock(START);
  let tk: TestKernel;
  let admin: HttpClient;
  let headers: Record<string, string>;
  let blog: Site;
  let signup: number;
  let funnel: number;

  const send = (method: 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown, site = DEFAULT_SITE_ID) =>
    admin.request(method, `${tk.api}${path}`, { json, headers, query: { site } });
  const get = (path: string, query: Record<string, unknown> = {}) => admin.get(`${tk.api}${path}`, { headers, query });
  /** A page view `seconds` later than the last one. */
  const view = async (uid: string, path: string, extra: Record<string, unknown> = {}, seconds = 10) => {
    clock.advance(seconds);
    const res = await track(tk, pageview(`https://www.example.com${path}`, uid, extra), { headers: { 'user-agent': CHROME } });
    expect(res.status).toBe(200);
  };
  const steps = async (query: Record<string, unknown> = {}) => {
    const res = await get('/data/funnel', { ...DAY, funnel, ...query });
    expect(res.status).toBe(200);
    return (res.body.data.steps as Array<Record<string, number>>).map((s) => [s.visitors, s.conversion_rate, s.drop_off, s.drop_off_rate]);
  };

  /** The period's figures from raw hits, then, after the clock moves to `foldAt` and the days fold, from the day blocks of `blockDays`. */
  const sameBeforeAndAfterFold = async (period: Record<string, string>, expected: number[][], foldAt: string, blockDays: readonly string[]) => {
    admin = await tk.signedIn();
    headers = { 'x-svc-nonce': await tk.nonce(admin) };
    expect(await steps(period)).toEqual(expected);
    clock.set(foldAt);
    admin = await tk.signedIn();
    headers = { 'x-svc-nonce': await tk.nonce(admin) };
    await tk.kernel.statistics.folder.foldPending();
    expect(tk.kernel.statistics.blocks.cached(DEFAULT_SITE_ID)).toEqual(expect.arrayContaining(blockDays.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)));
    expect(await steps(period)).toEqual(expected);
  };

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], clock, env: { SVC_TIMEZONE: 'UTC' } });
    blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example', timezone: 'UTC' });
    admin = await tk.signedIn();
    headers = { 'x-svc-nonce': await tk.nonce(admin) };
    const goal = await send('POST', '/goals', { title: 'Sign-up click', type: 'clicks', selector: '#signup', url: '*', status: 'active' });
    expect(goal.status).toBe(200);
    signup = goal.body.data.ID;
    const created = await send('POST', '/funnels', { name: 'Sign-up', steps: [{ page: '/' }, { page: '/pricing*' }, { goal: signup }] });
    expect(created.status).toBe(200);
    funnel = created.body.data.ID;

    // v1 goes through every step; v2 stops at a pricing page matched by the pattern.
    await view('v1', '/', { referrer_url: GOOGLE });
    await view('v1', '/pricing');
    await view('v1', '/pricing', { completed_goals: [signup] });
    await view('v2', '/', { referrer_url: GOOGLE });
    await view('v2', '/pricing/annual');
    // v3 sees pricing before the home page: only the first step.
    await view('v3', '/pricing');
    await view('v3', '/');
    // v4 reaches pricing in a later session: only the first step.
    await view('v4', '/');
    clock.advance(2 * 3600);
    await view('v4', '/pricing');
    // v5 is outside the funnel; v6 completes the goal without the pages.
    await view('v5', '/about');
    await view('v6', '/pricing', { completed_goals: [signup] });
  });
  afterAll(() => tk.close());

  it('counts each step in order within a session, with conversion from the first step and drop-off from the previous', async () => {
    expect(await count(tk, 'sessions', 'uid = ?', ['v4'])).toBe(2);
    const res = await get('/data/funnel', { ...DAY, funnel });
    expect(res.body.data.funnel).toMatchObject({ ID: funnel, name: 'Sign-up' });
    expect(res.body.data.steps.map((s: { label: string }) => s.label)).toEqual(['/', '/pricing*', 'Sign-up click']);
    expect(await steps()).toEqual([
      [4, 100, 0, 0],
      [2, 50, 2, 50],
      [1, 25, 1, 50],
    ]);
  });

  it('applies the period and the filters of the request', async () => {
    expect(await steps({ filters: JSON.stringify([{ key: 'referrer', value: GOOGLE }]) })).toEqual([
      [2, 100, 0, 0],
      [2, 100, 0, 0],
      [1, 50, 1, 50],
    ]);
    expect(await steps({ filters: JSON.stringify([{ key: 'referrer', value: GOOGLE, operator: 'is_not' }]) })).toEqual([
      [2, 100, 0, 0],
      [0, 0, 2, 100],
      [0, 0, 0, 0],
    ]);
    expect(await steps({ date_start: '2026-05-05', date_end: '2026-05-05' })).toEqual([
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
  });

  it('reads * as any characters and _ or % of a pattern literally', async () => {
    const literal = await send('POST', '/funnels', { name: 'Literal', steps: [{ page: '/pricing_annual' }, { page: '*' }] });
    expect(literal.status).toBe(200);
    await view('v7', '/pricing/annual');
    const res = await get('/data/funnel', { ...DAY, funnel: literal.body.data.ID });
    expect(res.body.data.steps.map((s: { visitors: number }) => s.visitors)).toEqual([0, 0]);
    expect((await send('DELETE', `/funnels/${literal.body.data.ID}`)).status).toBe(200);
  });

  it('refuses bad definitions with a 400 naming the field', async () => {
    const field = async (body: unknown) => {
      const res = await send('POST', '/funnels', body);
      expect(res.status).toBe(400);
      return res.body.data.field;
    };
    expect(await field({ name: '', steps: [{ page: '/' }, { page: '/a' }] })).toBe('name');
    expect(await field({ name: 'One', steps: [{ page: '/' }] })).toBe('steps');
    expect(await field({ name: 'Nine', steps: Array.from({ length: 9 }, () => ({ page: '/' })) })).toBe('steps');
    expect(await field({ name: 'Path', steps: [{ page: '/' }, { page: 'pricing' }] })).toBe('steps.1.page');
    expect(await field({ name: 'Both', steps: [{ page: '/', goal: signup }, { page: '/' }] })).toBe('steps.0');
    expect(await field({ name: 'Goal', steps: [{ page: '/' }, { goal: 999999 }] })).toBe('steps.1.goal');
    // A goal of another site is not a goal here.
    expect(await (async () => {
      const res = await send('POST', '/funnels', { name: 'Other', steps: [{ page: '/' }, { goal: signup }] }, blog.id);
      expect(res.status).toBe(400);
      return res.body.data.field;
    })()).toBe('steps.1.goal');
    expect((await send('PUT', `/funnels/${funnel}`, { name: 'Renamed', steps: [{ page: '/' }] })).status).toBe(400);
    expect((await get(`/funnels/${funnel}`)).body.data.name).toBe('Sign-up');
  });

  it('keeps each site to its own funnels: another site’s funnel is a 404 everywhere', async () => {
    const own = await send('POST', '/funnels', { name: 'Blog', steps: [{ page: '/' }, { page: '/post/*' }] }, blog.id);
    expect(own.status).toBe(200);
    const id = own.body.data.ID;
    expect((await get(`/funnels/${id}`, { site: DEFAULT_SITE_ID })).status).toBe(404);
    expect((await get('/data/funnel', { ...DAY, funnel: id, site: DEFAULT_SITE_ID })).body.code).toBe('svc_funnel_not_found');
    expect((await send('PUT', `/funnels/${id}`, { name: 'x', steps: [{ page: '/' }, { page: '/' }] })).status).toBe(404);
    expect((await send('DELETE', `/funnels/${id}`)).status).toBe(404);
    expect((await get('/funnels', { site: blog.id })).body.data.map((f: { name: string }) => f.name)).toEqual(['Blog']);
    expect((await get('/data/funnel', { ...DAY, funnel: id, site: blog.id })).status).toBe(200);
    await tk.kernel.sites.remove(blog.id);
    expect(await count(tk, 'funnels', 'site_id = ?', [blog.id])).toBe(0);
    expect(await count(tk, 'funnels', 'site_id = ?', [DEFAULT_SITE_ID])).toBe(1);
  });

  it('offers a funnels report block: one row per step of each funnel of the site', async () => {
    const blocks = await tk.kernel.hooks.applyFilters('svc_email_blocks', []);
    expect(blocks.map((b) => b.id)).toContain('funnels');
    const rows = await tk.kernel.statistics.data.runType('funnel-steps', DAY, { queryId: 'report_block_funnels', siteId: DEFAULT_SITE_ID });
    expect(rows).toEqual([
      expect.objectContaining({ funnel: 'Sign-up', step: 1, label: '/', visitors: 4 }),
      expect.objectContaining({ funnel: 'Sign-up', step: 2, visitors: 2, drop_off: 2 }),
      expect.objectContaining({ funnel: 'Sign-up', step: 3, label: 'Sign-up click', visitors: 1 }),
    ]);
  });

  it('gives the same figures once the day is folded and read from its day block', async () => {
    const filtered = { filters: JSON.stringify([{ key: 'referrer', value: GOOGLE, operator: 'is_not' }]) };
    const before = [await steps(), await steps(filtered)];
    clock.set('2026-05-05T06:00:00Z');
    admin = await tk.signedIn();
    headers = { 'x-svc-nonce': await tk.nonce(admin) };
    expect(await tk.kernel.statistics.folder.foldPending()).toContain(Date.parse('2026-05-04T00:00:00Z') / 1000);
    const walked = new Map<number, number[]>();
    await tk.kernel.statistics.walker.walk('test', { siteId: DEFAULT_SITE_ID, range: { start: Date.parse('2026-05-04T00:00:00Z') / 1000, end: Date.parse('2026-05-05T00:00:00Z') / 1000 }, status: '200', filters: [] }, (pv) => {
      walked.set(pv.session, [...(walked.get(pv.session) ?? []), pv.time]);
    });
    expect(walked.size).toBeGreaterThan(1);
    for (const times of walked.values()) expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(tk.kernel.statistics.blocks.cached(DEFAULT_SITE_ID)).toEqual([Date.parse('2026-05-04T00:00:00Z') / 1000]);
    expect([await steps(), await steps(filtered)]).toEqual(before);
  });
  it('follows a session across midnight however far the walk has gone, from raw hits and from day blocks', async () => {
    // x1 is the walk's first pageview; on 6 May x2 (an older session, so first in that day's block) comes more
    // than three days after it, before w1 goes on to pricing.
    clock.set('2026-05-03T00:00:10Z');
    await view('x1', '/');
    clock.set('2026-05-05T23:59:00Z');
    await view('x2', '/', {}, 0);
    await view('w1', '/', {}, 30);
    await view('x2', '/', {}, 60);
    await view('w1', '/pricing', {}, 20);
    expect(await count(tk, 'sessions', 'uid = ?', ['w1'])).toBe(1);
    // 4 May as the first test has it, then x1, x2 and w1 at the first step and w1 at the second.
    const expected = [
      [7, 100, 0, 0],
      [3, 42.86, 4, 57.14],
      [1, 14.29, 2, 66.67],
    ];
    await sameBeforeAndAfterFold({ date_start: '2026-05-03', date_end: '2026-05-06' }, expected, '2026-05-07T06:00:00Z', ['2026-05-03', '2026-05-05', '2026-05-06']);
  });

  it('follows a session a page left open keeps through a day without pageviews, from raw hits and from day blocks', async () => {
    // k1's page stays open from the evening of 8 May to just after midnight on 10 May, its heartbeats keeping
    // the session; k2 comes back to pricing on 10 May in a new session.
    clock.set('2026-05-08T23:50:00Z');
    await view('k1', '/', {}, 0);
    await view('k2', '/');
    for (let beat = 0; beat < 74; beat++) {
      clock.advance(20 * 60);
      expect((await track(tk, heartbeat('https://www.example.com/', 'k1', 20 * 60))).status).toBe(200);
    }
    clock.set('2026-05-10T00:10:00Z');
    await view('k1', '/pricing', {}, 0);
    await view('k2', '/pricing');
    expect(await count(tk, 'sessions', 'uid = ?', ['k1'])).toBe(1);
    expect(await count(tk, 'sessions', 'uid = ?', ['k2'])).toBe(2);
    const expected = [
      [2, 100, 0, 0],
      [1, 50, 1, 50],
      [0, 0, 1, 100],
    ];
    await sameBeforeAndAfterFold({ date_start: '2026-05-08', date_end: '2026-05-10' }, expected, '2026-05-11T06:00:00Z', ['2026-05-08', '2026-05-10']);
  });
});
