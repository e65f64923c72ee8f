import { definePlugin } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { setOptions } from './helpers';

const probe = definePlugin({
  name: 'options-probe',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_cookie_retention_days', () => 90);
    ctx.hooks.addFilter('svc_goals_script_url', (url) => `${url}?v=2`);
    ctx.hooks.addFilter('svc_tracking_options', (options) => ({ ...options, options: { ...options.options, custom: 'yes' } }));
  },
});

describe('the browser options object (tracking.md §2.6)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [probe] });
  });
  afterAll(() => tk.close());

  it('describes the page, the settings, the transport and the page goals, through the filters', async () => {
    const admin = await tk.signedIn();
    const headers = { 'x-svc-nonce': await tk.nonce(admin) };
    const goal = async (g: Record<string, unknown>) => (await admin.post(`${tk.api}/goals`, { json: { status: 'active', ...g }, headers })).body.data.ID as number;
    const everywhere = await goal({ title: 'Any click', type: 'clicks', selector: '.cta' });
    const here = await goal({ title: 'Here', type: 'views', selector: '#here', url: '/pricing/' });
    await goal({ title: 'Elsewhere', type: 'clicks', selector: '.x', url: '/other/' });
    await goal({ title: 'Visit', type: 'visits', url: '/pricing/' });
    await setOptions(tk, { privacy_level: 'private_mode', enable_do_not_track: true, track_url_change: true, track_external_links: true });

    const options = await tk.kernel.services.get('tracking')!.trackingOptions({ pageUrl: 'https://site.example/pricing/', pageId: 5, siteId: 1 });
    expect(options.tracking).toEqual({ isInitialHit: true, lastUpdateTimestamp: 0, beacon_url: `${tk.url}/svc/endpoint`, ajaxUrl: `${tk.url}/svc/ajax` });
    expect(options.options).toEqual({
      privacy_level: 'private_mode',
      cookieless: 1,
      pageUrl: 'https://site.example/pricing/',
      beacon_enabled: 0,
      do_not_track: 1,
      enable_turbo_mode: 0,
      track_url_change: 1,
      track_external_links: 0,
      cookie_retention_days: 90,
      page_id: 5,
      debug: 0,
      custom: 'yes',
    });
    expect(options.goals.scriptUrl).toBe(`${tk.url}/svc/js/svc-goals.min.js?v=2`);
    expect(options.goals.completed).toEqual([]);
    expect((options.goals.active as Array<{ ID: number }>).map((g) => g.ID)).toEqual([everywhere, here]);
    expect(options.cache).toEqual({ uid: null, fingerprint: null, isUserAgent: null, isDoNotTrack: null, useCookies: null });
  });
});
