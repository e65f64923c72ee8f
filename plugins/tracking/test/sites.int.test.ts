import { DEFAULT_SITE_ID, ManualClock, type Site, type StatsQuery } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, beacon, count, heartbeat, pageview, rows, track } from './helpers';

const START = Date.parse('2026-05-04T12:00:00Z');
const DAY = 86_400;

describe('hits of two sites (issue 15): each counted for its own site, never mixed', () => {
  const clock = new ManualClock(START);
  let tk: TestKernel;
  let blog: Site;
  let admin: ReturnType<TestKernel['client']>;
  let headers: Record<string, string>;
  const hit = async (payload: Record<string, unknown>) => (await track(tk, payload, { headers: { 'user-agent': CHROME } })).body.outcome ?? 'recorded';
  const totals = async (siteId: number, mode: StatsQuery['mode'] = 'auto') => {
    const [row] = await tk.kernel.statistics.engine.run({
      id: 'test_sites',
      siteId,
      range: { start: tk.clock.unix() - 3 * DAY, end: tk.clock.unix() + DAY },
      metrics: ['pageviews', 'visitors', 'sessions', 'avg_time_on_page'],
      groupBy: [],
      filters: [],
      status: '200',
      mode,
    });
    return row;
  };
  const pages = async (siteId: number) => {
    const res = await admin.get(`${tk.api}/data/datatable/pages?site=${siteId}`, { headers });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ page_url: string; pageviews: number }>).map((r) => [r.page_url, r.pageviews]);
  };

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], clock, env: { SVC_DEBUG: '1' } });
    blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example', timezone: 'UTC' });
    admin = await tk.signedIn();
    headers = { 'x-svc-nonce': await tk.nonce(admin) };
  });
  afterAll(() => tk.close());

  it('counts a hit for the site its snippet names, else for the site of the page host', async () => {
    expect(await hit(pageview('https://www.example.com/', 'same-visitor'))).toBe('recorded');
    expect(await hit(pageview('https://www.example.com/', 'same-visitor', { site: blog.id }))).toBe('recorded');
    expect(await hit(pageview('https://blog.example/post/', 'reader'))).toBe('recorded');
    expect((await beacon(tk, JSON.stringify(pageview('https://www.example.com/about/', 'beacon-reader', { site: String(blog.id) })), { 'user-agent': CHROME })).status).toBe(200);
    const sites = async (table: string) => (await rows<{ site_id: number }>(tk, table)).map((r) => Number(r.site_id)).sort();
    expect(await sites('statistics')).toEqual([DEFAULT_SITE_ID, blog.id, blog.id, blog.id]);
    // The same visitor on two sites has a session on each.
    expect(await count(tk, 'sessions', 'uid = ?', ['same-visitor'])).toBe(2);
  });

  it('keeps each site to its own figures, time on page included', async () => {
    expect(await hit(heartbeat('https://www.example.com/', 'same-visitor', 30))).toBe('recorded');
    expect(await hit({ ...heartbeat('https://www.example.com/', 'same-visitor', 7), site: blog.id })).toBe('recorded');
    expect(await totals(DEFAULT_SITE_ID)).toMatchObject({ pageviews: 1, visitors: 1, sessions: 1, avg_time_on_page: 30 });
    expect(await totals(blog.id)).toMatchObject({ pageviews: 3, visitors: 3, sessions: 3 });
    expect(await pages(DEFAULT_SITE_ID)).toEqual([['/', 1]]);
    expect((await pages(blog.id)).sort()).toEqual([['/', 1], ['/about/', 1], ['/post/', 1]]);
  });

  it('keeps them apart in the daily summaries too', async () => {
    clock.advance(DAY);
    headers = { 'x-svc-nonce': await tk.nonce(admin) };
    // One scheduled run folds at most its limit of days, of all sites together.
    expect(await tk.kernel.statistics.folder.foldPending(1)).toHaveLength(1);
    expect(await tk.kernel.statistics.folder.foldPending()).toHaveLength(1);
    const summaries = await rows<{ site_id: number; pageviews: number }>(tk, 'summary_days');
    expect(summaries.map((r) => [Number(r.site_id), Number(r.pageviews)]).sort()).toEqual([[DEFAULT_SITE_ID, 1], [blog.id, 3]]);
    for (const site of [DEFAULT_SITE_ID, blog.id]) expect(await totals(site)).toEqual(await totals(site, 'raw'));
    expect(await totals(blog.id)).toMatchObject({ pageviews: 3, visitors: 3 });
  });

  it('counts the goals of a site on that site only', async () => {
    const create = async (site: number, title: string) => {
      const res = await admin.post(`${tk.api}/goals?site=${site}`, { json: { title, type: 'visits', status: 'active', url: '/pricing/' }, headers });
      expect(res.status).toBe(200);
      return (res.body.data as { ID: number }).ID;
    };
    const mine = await create(DEFAULT_SITE_ID, 'Pricing');
    expect(((await admin.get(`${tk.api}/goals?site=${blog.id}`, { headers })).body.data as unknown[]).length).toBe(0);
    expect((await admin.get(`${tk.api}/goals/${mine}?site=${blog.id}`, { headers })).status).toBe(404);
    expect((await admin.request('DELETE', `${tk.api}/goals/${mine}?site=${blog.id}`, { headers })).status).toBe(404);
    expect(await hit(pageview('https://blog.example/pricing/', 'blog-buyer'))).toBe('recorded');
    expect(await count(tk, 'goal_statistics', 'goal_id = ?', [mine])).toBe(0);
    expect(await hit(pageview('https://www.example.com/pricing/', 'buyer'))).toBe('recorded');
    expect(await count(tk, 'goal_statistics', 'goal_id = ?', [mine])).toBe(1);
    const theirs = await create(blog.id, 'Blog pricing');
    expect(await hit(pageview('https://blog.example/pricing/', 'blog-buyer-2'))).toBe('recorded');
    expect(await count(tk, 'goal_statistics', 'goal_id = ?', [theirs])).toBe(1);
    expect(await count(tk, 'goal_statistics', 'goal_id = ?', [mine])).toBe(1);
  });

  it('drops the hit of a site id that does not exist', async () => {
    expect(await hit(pageview('https://blog.example/', 'lost', { site: 999 }))).toBe('unknown site');
    expect(await hit(pageview('https://blog.example/', 'lost', { site: 'blog' }))).toBe('unknown site');
  });

  it('sends hits of hosts no site claims to the first site until every site has its domain, then drops them as unknown site', async () => {
    expect(await hit(pageview('https://elsewhere.example/', 'stray'))).toBe('recorded');
    await tk.kernel.sites.update(DEFAULT_SITE_ID, { domain: 'www.example.com' });
    expect(await hit(pageview('https://elsewhere.example/gone/', 'stray'))).toBe('unknown site');
    expect(await hit(pageview('https://www.example.com/still/', 'stray'))).toBe('recorded');
    const drops = async (site: number) =>
      ((await admin.get(`${tk.api}/tracking/onboarding?site=${site}`, { headers })).body.data as { drops: Array<{ reason: string; page_url: string }> }).drops;
    expect((await drops(DEFAULT_SITE_ID)).map((d) => d.reason)).toContain('unknown site');
    // A site's list holds its own dropped hits only; hits of no known site are listed with the first site.
    expect(await hit(pageview('https://blog.example/crawled/', 'crawler', { user_agent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }))).toBe('bot');
    expect((await drops(blog.id)).map((d) => [d.reason, d.page_url])).toEqual([['bot', 'https://blog.example/crawled/']]);
    expect((await drops(DEFAULT_SITE_ID)).map((d) => d.reason)).not.toContain('bot');
  });

  it('gives the snippet of another site its id, and its embed script its goals and id', async () => {
    const scripts = tk.kernel.services.get('trackerScripts')!;
    expect(await scripts.snippet()).toBe(`<script src="${tk.url}/svc/embed.js" async></script>`);
    expect(await scripts.snippet(blog.id)).toBe(`<script src="${tk.url}/svc/embed.js?site=${blog.id}" async></script>`);
    const embed = await tk.client().get(`/svc/embed.js?site=${blog.id}`);
    expect(embed.status).toBe(200);
    const options = JSON.parse(/window\.svc=(\{.*?\});window\.svc_rest_url/.exec(String(embed.text))![1]!) as { site?: number };
    expect(options.site).toBe(blog.id);
    const plain = await tk.client().get('/svc/embed.js');
    expect(String(plain.text)).not.toContain('"site"');
    expect((await tk.client().get('/svc/embed.js?site=999')).status).toBe(404);
    // The settings page shows the line of the site chosen in the admin.
    expect((await admin.get(`/svc-admin/settings?site=${blog.id}`)).text).toContain(`/svc/embed.js?site=${blog.id}`);
    expect((await admin.get(`/svc-admin/settings?site=${DEFAULT_SITE_ID}`)).text).not.toContain('/svc/embed.js?site=');
  });

  it('links a search naming its site to the visitor\'s pageview on that site', async () => {
    expect(await hit(pageview('https://blog.example/find/', 'searcher'))).toBe('recorded');
    expect(await hit(pageview('https://www.example.com/find/', 'searcher'))).toBe('recorded');
    const res = await tk.client().post(`${tk.api}/track/search`, { json: { search_term: 'winter shoes', uid: 'searcher', site: blog.id }, headers: { 'user-agent': CHROME } });
    expect(res.status).toBe(200);
    const [link] = await rows<{ statistic_id: number }>(tk, 'statistics_searches');
    const [pageviewRow] = await rows<{ site_id: number }>(tk, 'statistics', 'ID = ?', [link!.statistic_id]);
    expect(Number(pageviewRow!.site_id)).toBe(blog.id);
  });

  it('reads the dates and days of a site in its own time zone', async () => {
    // 12:00 UTC on 5 May is 02:00 on 6 May on Kiritimati (UTC+14).
    expect(new Date(tk.clock.unix() * 1000).toISOString()).toBe('2026-05-05T12:00:00.000Z');
    const island = await tk.kernel.sites.add({ name: 'Island', domain: 'island.example', timezone: 'Pacific/Kiritimati' });
    expect(await hit(pageview('https://island.example/', 'islander'))).toBe('recorded');
    const get = async (path: string) => (await admin.get(`${tk.api}${path}`, { headers })).body.data as Record<string, unknown>;
    expect((await get(`/data/today?site=${island.id}`)).date).toBe('2026-05-06');
    expect((await get('/data/today')).date).toBe('2026-05-05');
    const chart = await get(`/data/insights?site=${island.id}&group_by=day&metrics=pageviews&date_start=2026-05-05&date_end=2026-05-06`);
    expect(chart).toMatchObject({ labels: ['2026-05-05', '2026-05-06'], datasets: { pageviews: [0, 1] } });
  });

  it('removes a site with its pageviews, sessions, goals, summaries and the rows joined to its pageviews; the other sites keep theirs', async () => {
    const before = await totals(DEFAULT_SITE_ID);
    const joined = async (siteIs: string) =>
      count(tk, 'goal_statistics', `statistic_id IN (SELECT ID FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))} WHERE site_id ${siteIs})`);
    expect(await joined(`= ${blog.id}`)).toBeGreaterThan(0);
    const orphans = () => count(tk, 'goal_statistics', `statistic_id NOT IN (SELECT ID FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))})`);
    const kept = await joined(`<> ${blog.id}`);
    await tk.kernel.sites.remove(blog.id);
    for (const table of ['statistics', 'sessions', 'goals', 'summary_days', 'summary_state']) expect(await count(tk, table, 'site_id = ?', [blog.id])).toBe(0);
    expect(await orphans()).toBe(0);
    expect(await count(tk, 'statistics_searches')).toBe(0);
    expect(await joined(`<> ${blog.id}`)).toBe(kept);
    expect(await totals(DEFAULT_SITE_ID)).toEqual(before);
  });
});
