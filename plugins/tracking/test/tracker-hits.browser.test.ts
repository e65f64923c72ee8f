/// <reference lib="dom" />
import { describeBrowser, launchBrowser } from '../../../test/helpers/browser';
import { type TrackerHarness, pageviews, payloadOf, startHarness, until } from './fixtures/tracker-harness';
import { count, rows, setOptions } from './helpers';

/** Pretends the page was hidden or shown again: headless Chromium keeps every page visible. */
const setHidden = (hidden: boolean) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  document.dispatchEvent(new Event('visibilitychange'));
};

describeBrowser('what the tracker sends (tracking.md §2.1, §3.1)', () => {
  let h: TrackerHarness;
  beforeAll(async () => {
    h = await startHarness(launchBrowser, { env: { SVC_LICENSE: 'creator' } });
  }, 60_000);
  afterAll(() => h?.close());
  afterEach(() => setOptions(h.tk, { track_url_change: false, track_external_links: false, enable_turbo_mode: false }));

  const page = async (path: string, body = '') => h.site.page(path, { head: await h.snippet(), body });

  it('adds the visible time on page, in whole seconds, when the page is hidden by leaving it', async () => {
    await page('/time/', '<a id="away" href="/time/next/">away</a>');
    await page('/time/next/');
    const v = await h.visitor();
    await v.page.clock.install();
    await v.page.goto(`${h.site.url}/time/`);
    await until(() => pageviews(h, '/time/'), (r) => r.length === 1);
    await v.page.clock.runFor(2_300);
    await Promise.all([v.page.waitForURL('**/time/next/'), v.page.click('#away')]);
    const [row] = await until(() => pageviews(h, '/time/'), (r) => r[0]!.time_on_page >= 2);
    expect(row!.time_on_page).toBeLessThanOrEqual(3);
  });

  it('counts time only while the page is visible and the visitor active (30 s without input is away)', async () => {
    await page('/idle/', '<a id="away" href="/idle/next/">away</a>');
    await page('/idle/next/');
    const v = await h.visitor();
    // Time stands still from here on, except when the test moves it.
    await v.page.clock.install({ time: new Date('2030-01-01T10:00:00Z') });
    await v.page.clock.pauseAt(new Date('2030-01-01T10:00:01Z'));
    await v.page.goto(`${h.site.url}/idle/`);
    await until(() => pageviews(h, '/idle/'), (r) => r.length === 1);
    await v.page.clock.runFor(5_000);
    await v.page.evaluate(setHidden, true);
    const [afterHide] = await until(() => pageviews(h, '/idle/'), (r) => r[0]!.time_on_page === 5);
    await v.page.clock.runFor(60_000);
    await v.page.evaluate(setHidden, false);
    await v.page.clock.runFor(65_000);
    await v.page.mouse.move(20, 20);
    await v.page.clock.runFor(3_000);
    await Promise.all([v.page.waitForURL('**/idle/next/'), v.page.click('#away')]);
    // 5 s, hidden for 60 s (nothing), 29 s until the visitor counted as away, 3 s after moving the mouse.
    const [row] = await until(() => pageviews(h, '/idle/'), (r) => r[0]!.time_on_page > 5);
    expect(afterHide!.time_on_page).toBe(5);
    expect(row!.time_on_page).toBe(37);
    const updates = v.sent.map(payloadOf).filter((p) => p.user_agent === undefined);
    expect(updates[0]).toEqual({ url: `${h.site.url}/idle/`, time_on_page: 5, completed_goals: [], uid: expect.stringMatching(/^[a-f0-9]{32}$/), fingerprint: null });
  });

  it('counts single-page navigation as page views when track_url_change is on, query string included', async () => {
    await setOptions(h.tk, { track_url_change: true });
    await page('/spa/one/', '<p>app</p>');
    const v = await h.visitor();
    await v.page.goto(`${h.site.url}/spa/one/`);
    await until(() => pageviews(h, '/spa/one/'), (r) => r.length === 1);
    await v.page.evaluate(() => history.pushState({}, '', '/spa/two/'));
    await until(() => pageviews(h, '/spa/two/'), (r) => r.length === 1);
    await v.page.evaluate(() => history.replaceState({}, '', '/spa/two/?tab=b'));
    await v.page.evaluate(() => history.pushState({}, '', '/spa/two/?tab=b#details'));
    await until(() => pageviews(h, '/spa/two/'), (r) => r.length === 2);
    await v.page.evaluate(() => history.back());
    await v.page.waitForURL('**/spa/two/?tab=b');
    await v.page.evaluate(() => history.go(-1));
    await v.page.waitForURL('**/spa/one/');
    const one = await until(() => pageviews(h, '/spa/one/'), (r) => r.length === 2);
    const two = await pageviews(h, '/spa/two/');
    expect(two.map((r) => r.parameters)).toEqual(['', 'tab=b']);
    expect(new Set([...one, ...two].map((r) => r.uid)).size).toBe(1);
    // The browser reports a request to the test on its own channel, which may come after the server stored the hit.
    const creates = await until(() => v.sent.map(payloadOf).filter((p) => p.user_agent), (c) => c.length >= 4);
    expect(creates.map((p) => [p.url, p.referrer_url])).toEqual([
      [`${h.site.url}/spa/one/`, ''],
      [`${h.site.url}/spa/two/`, `${h.site.url}/spa/one/`],
      [`${h.site.url}/spa/two/?tab=b`, `${h.site.url}/spa/two/`],
      [`${h.site.url}/spa/one/`, `${h.site.url}/spa/two/?tab=b`],
    ]);
    expect(v.errors).toEqual([]);

    await setOptions(h.tk, { track_url_change: false });
    await page('/spa/off/');
    const off = await h.visitor();
    await off.page.goto(`${h.site.url}/spa/off/`);
    await until(() => pageviews(h, '/spa/off/'), (r) => r.length === 1);
    await off.page.evaluate(() => history.pushState({}, '', '/spa/off/elsewhere/'));
    // Without track_url_change the tracker leaves the browser's own history methods alone.
    await off.page.waitForFunction(() => history.pushState.toString().includes('[native code]'));
    expect(await pageviews(h, '/spa/off/elsewhere/')).toEqual([]);
  });

  it('records an outbound click without holding up the navigation', async () => {
    await setOptions(h.tk, { track_external_links: true });
    const landing = `${h.site.otherHost}/landing`;
    await page('/outbound/', `<a id="out" href="${landing}">partner</a><a id="mail" href="mailto:someone@example.com">mail</a>`);
    h.site.page('/landing', '<p>landed</p>');
    // The daily scraper puts the page's outbound links into the lookup the click is matched against.
    const scout = await h.visitor();
    await scout.page.goto(`${h.site.url}/outbound/`);
    await until(() => pageviews(h, '/outbound/'), (r) => r.length === 1);
    await h.tk.kernel.scheduler.runRecurring('svc_daily', h.tk.clock.now(), true);
    expect(await count(h.tk, 'external_links', 'url = ?', [`${landing}/`])).toBe(1);

    const v = await h.visitor();
    await v.page.goto(`${h.site.url}/outbound/`);
    const views = await until(() => pageviews(h, '/outbound/'), (r) => r.length === 2);
    const started = Date.now();
    await Promise.all([v.page.waitForURL(landing), v.page.click('#out')]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await v.page.textContent('p')).toBe('landed');
    const joins = await until(() => rows<{ statistic_id: number }>(h.tk, 'statistics_external_links'), (r) => r.length === 1);
    expect(Number(joins[0]!.statistic_id)).toBe(Number(views[1]!.ID));
    expect(v.sent.map(payloadOf).some((p) => p.external_link_url === landing)).toBe(true);
  });

  it('completes click and view goals through the goals script, loaded only where a goal applies', async () => {
    const admin = await h.tk.signedIn();
    const headers = { 'x-svc-nonce': await h.tk.nonce(admin) };
    const goal = async (g: Record<string, unknown>) => (await admin.post(`${h.tk.api}/goals`, { json: { status: 'active', ...g }, headers })).body.data.ID as number;
    const buy = await goal({ title: 'Buy', type: 'clicks', selector: '.buy', url: '/shop/' });
    const seen = await goal({ title: 'Footer seen', type: 'views', selector: '#footer-cta', url: '/shop/' });
    await goal({ title: 'Broken', type: 'clicks', selector: '[[nonsense', url: '/shop/' });
    await page('/shop/', '<button class="buy"><span>Buy now</span></button><div style="height:3000px"></div><div id="footer-cta">offer</div>');
    await page('/plain/');

    const elsewhere = await h.visitor();
    await elsewhere.page.goto(`${h.site.url}/plain/`);
    await until(() => pageviews(h, '/plain/'), (r) => r.length === 1);
    expect(await elsewhere.page.evaluate(() => [...document.scripts].some((s) => s.src.includes('svc-goals')))).toBe(false);

    // A script's load event follows its run: the goals script listens once it has loaded.
    const v = await h.visitor({ init: "document.addEventListener('load', (e) => e.target.src && (window.loadedScripts ??= []).push(e.target.src), true);" });
    await v.page.goto(`${h.site.url}/shop/`);
    const [view] = await until(() => pageviews(h, '/shop/'), (r) => r.length === 1);
    await v.page.waitForFunction(() => ((window as unknown as { loadedScripts?: string[] }).loadedScripts ?? []).some((src) => src.includes('/svc/js/svc-goals.min.js?v=')));
    await v.page.click('.buy span');
    await v.page.click('.buy');
    await v.page.locator('#footer-cta').scrollIntoViewIfNeeded();
    const done = await until(
      () => rows<{ goal_id: number; statistic_id: number }>(h.tk, 'goal_statistics', 'statistic_id = ?', [view!.ID]),
      (r) => r.length === 2,
    );
    expect(done.map((r) => Number(r.goal_id)).sort()).toEqual([buy, seen].sort());
    expect(await v.page.evaluate(() => (window as unknown as { svc: { goals: { completed: number[] } } }).svc.goals.completed)).toEqual([buy, seen]);
    expect(v.errors).toEqual([]);
  });

  it('sends the first hit at once in async mode and after the load event in turbo mode', async () => {
    for (const turbo of [false, true]) {
      await setOptions(h.tk, { enable_turbo_mode: turbo });
      const path = `/load/${turbo ? 'turbo' : 'async'}/`;
      await page(path, '<img src="/slow.png" alt="">');
      expect(await h.snippet()).toContain(turbo ? '" defer></script>' : '" async></script>');
      const v = await h.visitor();
      await v.page.goto(`${h.site.url}${path}`, { waitUntil: 'load' });
      await until(() => pageviews(h, path), (r) => r.length === 1);
      // The row can be stored before the page has the answer, and with it the resource entry.
      await v.page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/track')));
      // Both times on the page's own clock: CDP events of different domains may arrive out of order.
      const { loaded, sentAt } = await v.page.evaluate(() => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const hit = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/track'));
        return { loaded: navigation.loadEventStart, sentAt: hit ? hit.startTime : -1 };
      });
      expect(sentAt).toBeGreaterThan(0);
      if (turbo) expect(sentAt).toBeGreaterThanOrEqual(loaded);
      else expect(sentAt).toBeLessThan(loaded - 500);
    }
  });
});
