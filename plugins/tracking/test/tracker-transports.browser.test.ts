/// <reference lib="dom" />
import { describeBrowser, launchBrowser } from '../../../test/helpers/browser';
import { freePort } from '../../../test/helpers/test-kernel';
import { type TrackerHarness, type Visitor, pageviews, payloadOf, startHarness, tracked, until } from './fixtures/tracker-harness';
import { rows, setOptions } from './helpers';

const STATUS_OPTION = 'svc_tracking_status';

/** A page script of the tracked site: it must keep working whatever the tracker does. */
const APP = '<button id="more">more</button><output id="count">0</output><script>document.getElementById("more").onclick = () => { const o = document.getElementById("count"); o.textContent = String(Number(o.textContent) + 1); }; window.appReady = true;</script>';

describeBrowser('transports and serving in the browser (tracking.md §4, §5)', () => {
  let h: TrackerHarness;
  beforeAll(async () => {
    h = await startHarness(launchBrowser);
  }, 60_000);
  afterAll(() => h?.close());
  afterEach(async () => {
    await setOptions(h.tk, { combine_vars_and_script: false, ghost_mode: false });
    await h.tk.kernel.options.set(STATUS_OPTION, { status: 'rest', last_test: h.tk.clock.unix() }, { autoload: false });
  });

  const page = async (path: string, body = '<a id="away" href="/away/">away</a>') => h.site.page(path, { head: await h.snippet(), body });
  const screenOf = async (sessionId: number) => {
    const [row] = await rows<{ screen: string }>(h.tk, 'sessions', 'ID = ?', [sessionId]);
    return row!.screen;
  };
  const leave = (v: Visitor) => Promise.all([v.page.waitForURL('**/away/'), v.page.click('#away')]);

  it('sends hits to {api_base}/track as double-encoded JSON, after a CORS preflight, by default', async () => {
    await page('/rest/');
    await page('/away/');
    const v = await h.visitor({ viewport: { width: 390, height: 800 } });
    await v.page.clock.install();
    await v.page.goto(`${h.site.url}/rest/`);
    const [view] = await until(() => pageviews(h, '/rest/'), (r) => r.length === 1);
    // The viewport class rides in its own field (README "Screen sizes") and stays with the session.
    expect(payloadOf(v.sent[0]!)).toMatchObject({ screen: 'mobile' });
    expect(await screenOf(view!.session_id)).toBe('mobile');
    expect(v.sent.map((s) => [s.url, s.contentType])).toEqual([[`${h.tk.api}/track`, 'application/json']]);
    expect(typeof JSON.parse(v.sent[0]!.body)).toBe('string');
    expect(h.tk.logs.some((l) => l.method === 'OPTIONS' && String(l.url).endsWith('/svc/v1/track') && l.status === 204)).toBe(true);
    await v.page.clock.runFor(1_100);
    await leave(v);
    await until(() => pageviews(h, '/rest/'), (r) => r[0]!.time_on_page >= 1);
  });

  it('sends hits with navigator.sendBeacon to the beacon endpoint when the transport status says beacon', async () => {
    await h.tk.kernel.options.set(STATUS_OPTION, { status: 'beacon', last_test: h.tk.clock.unix() }, { autoload: false });
    await page('/beacon/');
    await page('/away/');
    const v = await h.visitor();
    await v.page.clock.install();
    await v.page.goto(`${h.site.url}/beacon/`);
    await until(() => pageviews(h, '/beacon/'), (r) => r.length === 1);
    expect(await v.page.evaluate(() => (window as unknown as { svc: { options: { beacon_enabled: number } } }).svc.options.beacon_enabled)).toBe(1);
    expect(v.sent).toHaveLength(1);
    expect(v.sent[0]!.url).toBe(`${h.tk.url}/svc/endpoint`);
    expect(v.sent[0]!.contentType).toMatch(/^text\/plain/);
    expect(payloadOf(v.sent[0]!)).toMatchObject({ url: `${h.site.url}/beacon/`, screen: 'laptop' });
    await v.page.clock.runFor(1_100);
    await leave(v);
    await until(() => pageviews(h, '/beacon/'), (r) => r[0]!.time_on_page >= 1);
  });

  it('works with the options and the tracker in one script, and under ghost names', async () => {
    await setOptions(h.tk, { combine_vars_and_script: true });
    await page('/combined/');
    const combined = await h.visitor();
    const loaded: string[] = [];
    combined.context.on('request', (req) => req.resourceType() === 'script' && loaded.push(req.url()));
    await combined.page.goto(`${h.site.url}/combined/`);
    await until(() => pageviews(h, '/combined/'), (r) => r.length === 1);
    expect(loaded).toEqual([`${h.tk.url}/svc/embed.js`]);

    await setOptions(h.tk, { combine_vars_and_script: false, ghost_mode: true });
    await page('/ghost/');
    const ghost = await h.visitor();
    const ghostLoads: string[] = [];
    ghost.context.on('request', (req) => req.resourceType() === 'script' && ghostLoads.push(req.url()));
    await ghost.page.goto(`${h.site.url}/ghost/`);
    await until(() => pageviews(h, '/ghost/'), (r) => r.length === 1);
    expect(ghostLoads).toHaveLength(2);
    for (const url of ghostLoads) expect(url).toMatch(new RegExp(`^${h.tk.url}/js/s[a-f0-9]{8}\\.js`));
  });

  it('leaves the page working when the service cannot be reached', async () => {
    const closed = await freePort();
    h.site.page('/offline/', { head: `<script src="http://127.0.0.1:${closed}/svc/embed.js" async></script>`, body: APP });
    const embed = await (await fetch(`${h.tk.url}/svc/embed.js`)).text();
    const unreachable = embed.replace(JSON.stringify(h.tk.api), JSON.stringify(`http://127.0.0.1:${closed}/wp-json/svc/v1`));
    expect(unreachable).not.toBe(embed);
    h.site.page('/unreachable.js', unreachable);
    h.site.page('/no-api/', { head: '<script src="/unreachable.js" async></script>', body: `${APP}<a id="away" href="/away/">away</a>` });
    await page('/away/');

    for (const path of ['/offline/', '/no-api/']) {
      const v = await h.visitor();
      await v.page.clock.install();
      const problems: string[] = [];
      v.page.on('console', (m) => m.type() === 'error' && !/Failed to load resource|ERR_CONNECTION_REFUSED|net::/.test(m.text()) && problems.push(m.text()));
      const started = Date.now();
      await v.page.goto(`${h.site.url}${path}`, { waitUntil: 'load' });
      expect(Date.now() - started).toBeLessThan(3_000);
      await v.page.waitForFunction(() => (window as unknown as { appReady?: boolean }).appReady === true);
      await v.page.click('#more');
      await v.page.click('#more');
      expect(await v.page.textContent('#count')).toBe('2');
      if (path === '/no-api/') {
        await tracked(v);
        await v.page.evaluate(() => history.pushState({}, '', '/no-api/?moved=1'));
        await v.page.clock.runFor(1_100);
        await leave(v);
        // The page left for is tracked: whatever the page before it did has ended.
        await tracked(v);
      }
      expect(v.errors).toEqual([]);
      expect(problems).toEqual([]);
    }
    expect(await pageviews(h, '/no-api/')).toEqual([]);
  });
});

describeBrowser('tracking error reports in debug mode (tracking.md §4, §8.1)', () => {
  let h: TrackerHarness;
  beforeAll(async () => {
    // The tracked site is not an allowed origin: every REST hit fails in the browser.
    h = await startHarness(launchBrowser, { env: { SVC_DEBUG: '1', SVC_ALLOWED_ORIGINS: 'https://elsewhere.example' } });
  }, 60_000);
  afterAll(() => h?.close());

  const reports = () => h.tk.logs.filter((l) => l.msg === 'tracking error reported by the browser');

  it('reports a failed hit once per browser session', async () => {
    h.site.page('/debug/', { head: await h.snippet(), body: '<a id="again" href="/debug/?again=1">again</a>' });
    const v = await h.visitor();
    await v.page.goto(`${h.site.url}/debug/`);
    const [first] = await until(async () => reports(), (r) => r.length === 1);
    expect(first!.report).toMatchObject({ endpoint: `${h.tk.api}/track`, url: `${h.site.url}/debug/` });
    // The second page's hit fails as the first did; a report would follow its failure at once.
    const failed = v.context.waitForEvent('requestfailed', (req) => req.method() === 'POST' && req.url() === `${h.tk.api}/track` && req.frame().url().endsWith('?again=1'));
    await Promise.all([v.page.waitForURL('**/debug/?again=1'), v.page.click('#again')]);
    await tracked(v);
    await failed;
    expect(reports()).toHaveLength(1);
    expect(await pageviews(h, '/debug/')).toEqual([]);

    // A new browser session reports again.
    const next = await h.visitor();
    await next.page.goto(`${h.site.url}/debug/`);
    await until(async () => reports(), (r) => r.length === 2);
  });
});
