/// <reference lib="dom" />
import { describeBrowser, launchBrowser } from '../../../test/helpers/browser';
import { type TrackerHarness, VISITOR_UA, pageviews, payloadOf, startHarness, untracked, until } from './fixtures/tracker-harness';
import { count, rows, setOptions } from './helpers';

const HEX32 = /^[a-f0-9]{32}$/;

describeBrowser('the tracker in each privacy mode (tracking.md §2.1, §3.4)', () => {
  let h: TrackerHarness;
  beforeAll(async () => {
    h = await startHarness(launchBrowser);
  }, 60_000);
  afterAll(() => h?.close());
  afterEach(() => setOptions(h.tk, { privacy_level: 'cookie', enable_do_not_track: false }));

  /** A page of the tracked site with the settings page's snippet. */
  const page = async (path: string, body = '', bodyAttributes = '') => h.site.page(path, { head: await h.snippet(), body, bodyAttributes });

  it('cookie mode: a page view with the full payload and a visitor whose uid is the svc_uid cookie', async () => {
    await page('/cookie/', '<a id="next" href="/cookie/two/">next</a>', ' data-svc_id="17" data-svc_type="post"');
    await page('/cookie/two/');
    const v = await h.visitor();
    await v.page.goto(`${h.site.url}/cookie/?s=red+shoes`);
    const [row] = await until(() => pageviews(h, '/cookie/'), (r) => r.length === 1);
    const cookie = (await v.context.cookies(h.site.url)).find((c) => c.name === 'svc_uid')!;
    expect(cookie.value).toMatch(HEX32);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBe(false);
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(29.9 * 86_400);
    expect(cookie.expires - Date.now() / 1000).toBeLessThan(30.1 * 86_400);
    expect(row).toMatchObject({ uid: cookie.value, page_id: 17, page_type: 'post', parameters: 's=red+shoes' });

    const hit = v.sent[0]!;
    expect(hit.url).toBe(`${h.tk.api}/track`);
    expect(hit.contentType).toBe('application/json');
    expect(typeof JSON.parse(hit.body)).toBe('string');
    expect(payloadOf(hit)).toEqual({
      url: `${h.site.url}/cookie/?s=red+shoes`,
      referrer_url: '',
      user_agent: VISITOR_UA,
      uid: cookie.value,
      fingerprint: null,
      time_on_page: 0,
      completed_goals: [],
      page_id: 17,
      page_type: 'post',
      search_term: 'red shoes',
      should_load_ecommerce: false,
      // Not a field of §2.1: the viewport class in a field of its own (README "Screen sizes").
      screen: 'laptop',
    });
    expect(await count(h.tk, 'searches', 'search_term = ?', ['red shoes'])).toBe(1);

    // The same visitor on a second page: one session, two page views.
    await Promise.all([v.page.waitForURL('**/cookie/two/'), v.page.click('#next')]);
    const [second] = await until(() => pageviews(h, '/cookie/two/'), (r) => r.length === 1);
    expect(second!.uid).toBe(cookie.value);
    expect(second!.session_id).toBe(row!.session_id);
    expect(payloadOf(v.sent.find((s) => payloadOf(s).url === `${h.site.url}/cookie/two/`)!).referrer_url).toBe(`${h.site.url}/cookie/?s=red+shoes`);
    const [session] = await rows<{ bounce: number }>(h.tk, 'sessions', 'uid = ?', [cookie.value]);
    expect(Number(session!.bounce)).toBe(0);
    expect(await count(h.tk, 'sessions', 'uid = ?', [cookie.value])).toBe(1);
    expect(v.errors).toEqual([]);
  });

  it('private mode: no cookie and no fingerprint; the server hashes the visitor', async () => {
    await setOptions(h.tk, { privacy_level: 'private_mode' });
    await page('/private/');
    const v = await h.visitor();
    await v.page.goto(`${h.site.url}/private/`);
    const [row] = await until(() => pageviews(h, '/private/'), (r) => r.length === 1);
    expect(row!.uid).toMatch(/^[a-f0-9]{64}$/);
    expect(await v.context.cookies(h.site.url)).toEqual([]);
    expect(payloadOf(v.sent[0]!)).toMatchObject({ uid: null, fingerprint: null });
    expect(await v.page.evaluate(() => (window as unknown as { svc: { cache: unknown } }).svc.cache)).toMatchObject({ uid: null, useCookies: false });
  });

  it('fingerprint mode: the cookieless script sends a stable browser fingerprint and sets no cookie', async () => {
    await setOptions(h.tk, { privacy_level: 'fingerprint' });
    await page('/fingerprint/');
    const first = await h.visitor();
    await first.page.goto(`${h.site.url}/fingerprint/`);
    const [row] = await until(() => pageviews(h, '/fingerprint/'), (r) => r.length === 1);
    expect(row!.uid).toMatch(HEX32);
    expect(payloadOf(first.sent[0]!)).toMatchObject({ uid: null, fingerprint: row!.uid, screen: 'laptop' });
    expect(await first.context.cookies(h.site.url)).toEqual([]);
    const scripts = await first.page.evaluate(() => [...document.scripts].map((s) => s.src));
    expect(scripts.some((src) => src.includes('/svc/js/svc-cookieless.min.js?v='))).toBe(true);
    expect(scripts.some((src) => src.includes('/svc/js/svc.min.js'))).toBe(false);

    // Another visit from the same browser, without any stored state, is the same visitor.
    const again = await h.visitor();
    await again.page.goto(`${h.site.url}/fingerprint/`);
    const both = await until(() => pageviews(h, '/fingerprint/'), (r) => r.length === 2);
    expect(both[1]!.uid).toBe(row!.uid);
    expect(first.errors.concat(again.errors)).toEqual([]);
  });

  it('holds every hit until consent, then tracks with the cookie', async () => {
    await h.site.page('/consent/hold/', { head: `<script>window.svc_consent = 'hold'</script>${await h.snippet()}` });
    const v = await h.visitor();
    await v.page.goto(`${h.site.url}/consent/hold/`);
    await v.page.waitForFunction(() => (window as unknown as { svc?: { cache: { useCookies: unknown } } }).svc?.cache.useCookies === false);
    await untracked(v);
    expect(v.sent).toEqual([]);
    expect(await v.context.cookies(h.site.url)).toEqual([]);
    await v.page.evaluate(() => document.dispatchEvent(new Event('svc_enable_cookies')));
    const [row] = await until(() => pageviews(h, '/consent/hold/'), (r) => r.length === 1);
    const cookie = (await v.context.cookies(h.site.url)).find((c) => c.name === 'svc_uid');
    expect(row!.uid).toBe(cookie!.value);
  });

  it('tracks without a cookie until consent, then switches to the cookie', async () => {
    await h.site.page('/consent/later/', { head: `<script>window.svc_consent = 'cookieless'</script>${await h.snippet()}`, body: '<a id="on" href="/consent/after/">on</a>' });
    await page('/consent/after/');
    const v = await h.visitor({ init: "if (sessionStorage.consented) window.svc_consent = 'given';" });
    await v.page.goto(`${h.site.url}/consent/later/`);
    const [before] = await until(() => pageviews(h, '/consent/later/'), (r) => r.length === 1);
    expect(before!.uid).toMatch(/^[a-f0-9]{64}$/);
    expect(await v.context.cookies(h.site.url)).toEqual([]);
    await v.page.evaluate(() => {
      sessionStorage.consented = '1';
      document.dispatchEvent(new Event('svc_enable_cookies'));
    });
    const cookie = await until(
      async () => (await v.context.cookies(h.site.url)).find((c) => c.name === 'svc_uid'),
      (c) => c !== undefined,
    );
    await Promise.all([v.page.waitForURL('**/consent/after/'), v.page.click('#on')]);
    const [after] = await until(() => pageviews(h, '/consent/after/'), (r) => r.length === 1);
    expect(after!.uid).toBe(cookie!.value);
  });

  it('sends nothing under Do Not Track or Global Privacy Control when enabled, and tracks them otherwise', async () => {
    await page('/dnt/');
    const gpc = "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });";
    const dnt = "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });";
    await setOptions(h.tk, { enable_do_not_track: true });
    for (const init of [gpc, dnt]) {
      const v = await h.visitor({ init, extraHTTPHeaders: { DNT: '1' } });
      await v.page.goto(`${h.site.url}/dnt/`);
      await untracked(v);
      await v.page.goto(`${h.site.url}/dnt/?again=1`);
      await untracked(v);
      expect(v.sent).toEqual([]);
      expect(await v.context.cookies(h.site.url)).toEqual([]);
    }
    expect(await pageviews(h, '/dnt/')).toEqual([]);
    await setOptions(h.tk, { enable_do_not_track: false });
    const v = await h.visitor({ init: gpc });
    await v.page.goto(`${h.site.url}/dnt/`);
    await until(() => pageviews(h, '/dnt/'), (r) => r.length === 1);
  });

  it('skips bots', async () => {
    await page('/bots/');
    const v = await h.visitor({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await v.page.goto(`${h.site.url}/bots/`);
    await untracked(v);
    expect(v.sent).toEqual([]);
    expect(await pageviews(h, '/bots/')).toEqual([]);
  });
});
