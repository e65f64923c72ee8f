/// <reference lib="dom" />
import { DEFAULT_SITE_ID, type Site } from '../../../core';
import { describeBrowser, launchBrowser } from '../../../test/helpers/browser';
import { type TrackerHarness, type Visitor, payloadOf, startHarness, until } from './fixtures/tracker-harness';
import { rows, setOptions } from './helpers';

const STATUS_OPTION = 'svc_tracking_status';

describeBrowser('two sites tracked in the browser through their snippets (issue 15)', () => {
  let h: TrackerHarness;
  let shop: Site;
  beforeAll(async () => {
    h = await startHarness(launchBrowser);
    shop = await h.tk.kernel.sites.add({ name: 'Shop', domain: 'shop.example', timezone: 'UTC' });
  }, 60_000);
  afterAll(() => h?.close());

  const snippetOf = async (siteId: number) => (await h.tk.kernel.services.get('trackerScripts')!.snippet(siteId))!;
  const sitesOf = async (path: string) => (await rows<{ site_id: number }>(h.tk, 'statistics', 'page_url = ?', [path])).map((r) => Number(r.site_id));
  const visit = async (path: string): Promise<Visitor> => {
    const v = await h.visitor();
    await v.page.goto(`${h.site.url}${path}`);
    return v;
  };
  const pageviews = async (siteId: number) =>
    (
      await h.tk.kernel.statistics.engine.run({
        id: 'test_sites',
        siteId,
        range: { start: h.tk.clock.unix() - 86_400, end: h.tk.clock.unix() + 86_400 },
        metrics: ['pageviews'],
        groupBy: ['page_url'],
        filters: [],
        status: '200',
      })
    ).map((r) => [r.page_url, r.pageviews]);

  it('counts each page for the site of its snippet, over REST and over the beacon, and never mixes their figures', async () => {
    h.site.page('/', { head: await snippetOf(DEFAULT_SITE_ID) });
    h.site.page('/shop/', { head: await snippetOf(shop.id) });
    const first = await visit('/');
    await until(() => sitesOf('/'), (s) => s.length === 1);
    const second = await visit('/shop/');
    await until(() => sitesOf('/shop/'), (s) => s.length === 1);
    expect(payloadOf(first.sent[0]!).site).toBeUndefined();
    expect(payloadOf(second.sent[0]!).site).toBe(shop.id);

    await h.tk.kernel.options.set(STATUS_OPTION, { status: 'beacon', last_test: h.tk.clock.unix() }, { autoload: false });
    h.site.page('/shop/beacon/', { head: await snippetOf(shop.id) });
    const third = await visit('/shop/beacon/');
    await until(() => sitesOf('/shop/beacon/'), (s) => s.length === 1);
    expect(third.sent[0]!.url).toBe(`${h.tk.url}/svc/endpoint`);

    expect(await sitesOf('/')).toEqual([DEFAULT_SITE_ID]);
    expect(await sitesOf('/shop/')).toEqual([shop.id]);
    expect(await sitesOf('/shop/beacon/')).toEqual([shop.id]);
    expect(await pageviews(DEFAULT_SITE_ID)).toEqual([['/', 1]]);
    expect((await pageviews(shop.id)).sort()).toEqual([['/shop/', 1], ['/shop/beacon/', 1]]);
    for (const v of [first, second, third]) expect(v.errors).toEqual([]);
  });

  it('sends the site from the cookieless fingerprint script too', async () => {
    await h.tk.kernel.options.set(STATUS_OPTION, { status: 'rest', last_test: h.tk.clock.unix() }, { autoload: false });
    await setOptions(h.tk, { privacy_level: 'fingerprint' });
    h.site.page('/shop/cookieless/', { head: await snippetOf(shop.id) });
    const v = await visit('/shop/cookieless/');
    await until(() => sitesOf('/shop/cookieless/'), (s) => s.length === 1);
    expect(payloadOf(v.sent[0]!)).toMatchObject({ site: shop.id, fingerprint: expect.stringMatching(/^[a-z0-9]+$/) });
    expect(await sitesOf('/shop/cookieless/')).toEqual([shop.id]);
    await setOptions(h.tk, { privacy_level: 'cookie' });
  });
});
