import { definePlugin } from '../../../core';
import type { HttpClient, HttpResponse } from '../../../test/helpers/http-client';
import { type Json, type StoryKernel, startStoryKernel } from './support';

const RANGE = { date_start: '2026-01-12', date_end: '2026-01-14' };
const WIDE = { date_start: '2026-01-01', date_end: '2026-01-20' };
const RECIPIENT = 'private-recipient@example.com';

describe('access of share sessions', () => {
  let k: StoryKernel;
  /** Every answer a viewer got, to check that no private report field ever appears. */
  const seen: string[] = [];
  const as = async (client: HttpClient, token: string, path: string, query?: Record<string, unknown>): Promise<HttpResponse<Json>> => {
    const res = await k.viewerGet(client, token, path, query);
    seen.push(res.text);
    return res;
  };
  const adminGet = (path: string, query: Record<string, unknown>) => k.admin.get(`${k.tk.api}${path}`, { query });

  beforeAll(async () => {
    k = await startStoryKernel();
  });
  afterAll(async () => {
    for (const text of seen) expect(text).not.toContain(RECIPIENT);
    await k.close();
  });

  describe('a dashboard link sharing the statistics tab, without permissions', () => {
    let client: HttpClient;
    let token: string;
    beforeAll(async () => {
      const link = await k.share({ shared_tabs: ['statistics'], initial_state: { date_range: { start: RANGE.date_start, end: RANGE.date_end }, filters: { page_url: '/pricing' } } });
      token = link.token;
      client = (await k.visit(link.url)).client;
    });

    it.each([
      ['POST', '/do_action/get_share_token', 403],
      ['POST', '/do_action/revoke_share_link', 403],
      ['POST', '/do_action/list_share_links', 403],
      ['GET', '/reports', 403],
      ['GET', '/report/logs', 403],
      ['POST', '/do_action/report/create', 403],
      ['POST', '/do_action/report/preview', 403],
      ['GET', '/nonce', 403],
      ['GET', '/goals', 403],
      ['POST', '/goals', 403],
      ['GET', '/tracking/status', 403],
      ['GET', '/users/me/application-passwords', 403],
      ['POST', '/users/me/application-passwords', 403],
      ['GET', '/data/channels', 403],
      ['GET', '/data/world-map', 403],
      ['GET', '/data/datatable/campaigns', 403],
      ['GET', '/data/datatable/referrer-domains', 403],
      ['GET', '/data/export/sources', 403],
      ['GET', '/data/no-such-type', 403],
    ])('refuses %s %s', async (method, path, status) => {
      const res = await client.request(method, `${k.tk.api}${path}`, { headers: { 'x-svc-share-token': token }, json: method === 'POST' ? { report: { name: 'x' }, name: 'x', token } : undefined });
      seen.push(res.text);
      expect([path, res.status, res.body.success]).toEqual([path, status, false]);
    });

    it('refuses the abilities namespace', async () => {
      const base = `${k.tk.url}${k.tk.kernel.config.restPrefix}/wp-abilities/v1`;
      for (const path of ['/abilities', '/categories', '/abilities/svc/sales-data/run']) {
        const res = await client.get(`${base}${path}`, { headers: { 'x-svc-share-token': token } });
        expect([path, res.status]).toEqual([path, 403]);
      }
    });

    it('reads the data routes of its tab, CSV included', async () => {
      for (const path of ['/data/compare', '/data/insights', '/data/devices', '/data/goals', '/data/today', '/data/live-visitors', '/data/datatable/pages', '/data/datatable/referrers', '/data/datatable/countries', '/data/datatable/not-found-pages']) {
        const res = await as(client, token, path);
        expect([path, res.status]).toEqual([path, 200]);
      }
      const csv = await as(client, token, '/data/datatable/pages', { format: 'csv', filters: '' });
      expect(csv.status).toBe(200);
      expect(csv.text.split('\n').filter((l) => l.startsWith('/'))).toEqual([expect.stringMatching(/^\/pricing,/)]);
    });

    it('searches, sorts and exports within the link period and filters only', async () => {
      const details = await as(client, token, '/data/datatable/pages', { ...WIDE, filters: '', search: '/', order_by: 'page_url', limit: 1000 });
      expect([details.status, details.body.data.total, details.body.data.rows.map((r: Json) => r.page_url)]).toEqual([200, 1, ['/pricing']]);
      const whole = await as(client, token, '/data/datatable/pages', { ...WIDE, filters: '', search: '/', format: 'csv' });
      expect(whole.text.split('\n').filter((l) => l.startsWith('/'))).toEqual([expect.stringMatching(/^\/pricing,/)]);
      const res = await k.viewerGet(client, token, '/data/export/statistics', { ...WIDE, filters: '' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`statistics-${RANGE.date_start}-${RANGE.date_end}.zip`);
    });

    it('forces the link period and filters whatever the request asks', async () => {
      const expected = await adminGet('/data/datatable/pages', { ...RANGE, filters: JSON.stringify({ page_url: '/pricing' }) });
      expect(expected.body.data.map((r: Json) => r.page_url)).toEqual(['/pricing']);
      for (const query of [{}, WIDE, { ...WIDE, filters: JSON.stringify({ page_url: '/' }) }, { filters: 'status:all' }, { filters: JSON.stringify([{ key: 'page_url', value: '/missing' }]) }]) {
        const res = await as(client, token, '/data/datatable/pages', query);
        expect([query, res.body.data]).toEqual([query, expected.body.data]);
      }
      const compare = await as(client, token, '/data/compare', WIDE);
      expect(compare.body.data.periods.current).toEqual(RANGE);
    });
  });

  describe('a dashboard link made from a view, without an initial state', () => {
    it('fixes the period and filters of that view (a preset rolls with the site date)', async () => {
      const link = await k.share({ view_url: `/svc-admin/statistics?range=last_7_days&filters=${encodeURIComponent('{"page_url":"/"}')}` });
      const { client } = await k.visit(link.url);
      const compare = await as(client, link.token, '/data/compare', { ...WIDE, filters: '' });
      expect(compare.body.data.periods.current).toEqual({ date_start: '2026-01-14', date_end: '2026-01-20' });
      const expected = await adminGet('/data/datatable/pages', { date_start: '2026-01-14', date_end: '2026-01-20', filters: JSON.stringify({ page_url: '/' }) });
      expect(expected.body.data.map((r: Json) => r.page_url)).toEqual(['/']);
      expect((await as(client, link.token, '/data/datatable/pages', WIDE)).body.data).toEqual(expected.body.data);
    });

    it('falls back to the default period when neither names one', async () => {
      const link = await k.share();
      const { client } = await k.visit(link.url);
      const compare = await as(client, link.token, '/data/compare', WIDE);
      expect(compare.body.data.periods.current).toEqual({ date_start: '2025-12-22', date_end: '2026-01-20' });
    });
  });

  describe('a dashboard link that lets the viewer change dates and filters', () => {
    it('honours the requested period and filters on the shared tab', async () => {
      const link = await k.share({ shared_tabs: ['statistics', 'sources'], permissions: { can_change_date: true, can_filter: true } });
      const { client } = await k.visit(link.url);
      const query = { ...WIDE, filters: JSON.stringify({ page_url: '/' }) };
      const expected = await adminGet('/data/datatable/pages', query);
      const res = await as(client, link.token, '/data/datatable/pages', query);
      expect(res.body.data).toEqual(expected.body.data);
      expect((await as(client, link.token, '/data/compare', WIDE)).body.data.periods.current).toEqual(WIDE);
      expect((await as(client, link.token, '/data/channels', WIDE)).status).toBe(200);
    });
  });

  describe('a dashboard link made from a view with operator filters', () => {
    const forced = { page_url: { operator: 'is_not', value: ['/pricing', '/'] } };
    const view = `/svc-admin/statistics?range=custom&date_start=${RANGE.date_start}&date_end=${RANGE.date_end}&filters=${encodeURIComponent(JSON.stringify(forced))}`;
    const pageviews = async (client: HttpClient, token: string, filters: unknown) =>
      (await as(client, token, '/data/compare', { ...RANGE, metrics: 'pageviews', ...(filters ? { filters: JSON.stringify(filters) } : {}) })).body.data.current.pageviews;

    it('forces them on every request when the viewer may not filter, whatever form the request uses', async () => {
      const link = await k.share({ shared_tabs: ['statistics'], view_url: view });
      const { client } = await k.visit(link.url);
      expect(await pageviews(client, link.token, null)).toBe(2);
      expect(await pageviews(client, link.token, { page_url: { operator: 'contains', value: ['pric'] } })).toBe(2);
      expect(await pageviews(client, link.token, [{ key: 'page_url', operator: 'is', value: '/pricing' }])).toBe(2);
      expect(await pageviews(client, link.token, 'page_url:/pricing')).toBe(2);
    });

    it('starts from them and lets the viewer change them when the link allows filtering', async () => {
      const link = await k.share({ shared_tabs: ['statistics'], view_url: view, permissions: { can_filter: true } });
      const { client } = await k.visit(link.url);
      expect(await pageviews(client, link.token, forced)).toBe(2);
      expect(await pageviews(client, link.token, { page_url: { operator: 'contains', value: ['pric'] } })).toBe(4);
    });
  });

  describe('a report (story) link', () => {
    let client: HttpClient;
    let token: string;
    let reportId: number;
    beforeAll(async () => {
      reportId = await k.report({
        name: 'Pricing story',
        recipients: [RECIPIENT],
        reportDateRange: 'custom:2026-01-13:2026-01-13',
        content: [
          { id: 'compare', date_range_enabled: true, date_range: 'custom:2026-01-09:2026-01-11' },
          { id: 'pages', filters: [{ key: 'page_url', value: '/pricing' }] },
        ],
      });
      const link = await k.share({ report_id: reportId });
      token = link.token;
      client = (await k.visit(link.url)).client;
    });

    it('reads only the endpoints of its blocks', async () => {
      for (const path of ['/data/compare', '/data/insights', '/data/datatable/pages']) {
        expect([path, (await as(client, token, path)).status]).toEqual([path, 200]);
      }
      for (const path of ['/data/datatable/referrers', '/data/datatable/countries', '/data/datatable/not-found-pages', '/data/devices', '/data/goals', '/data/today', '/data/channels', '/data/datatable/campaigns', '/data/export/statistics', '/goals', '/reports']) {
        const res = await as(client, token, path);
        expect([path, res.status]).toEqual([path, 403]);
      }
    });

    it('forces each block filters and period, so a viewer cannot widen the data', async () => {
      const pricing = JSON.stringify([{ key: 'page_url', value: '/pricing' }]);
      const expected = await adminGet('/data/datatable/pages', { date_start: '2026-01-13', date_end: '2026-01-13', filters: pricing });
      expect(expected.body.data.map((r: Json) => r.page_url)).toEqual(['/pricing']);
      const wider = await adminGet('/data/datatable/pages', { ...RANGE, filters: pricing });
      expect(wider.body.data[0].pageviews).toBeGreaterThan(expected.body.data[0].pageviews);
      for (const query of [{}, WIDE, { filters: '' }, { filters: '[]' }, { filters: 'status:all' }, { filters: 'status:404' }, { ...WIDE, filters: JSON.stringify({ page_url: '/' }) }, { report_id: reportId + 1, route: '/reports' }]) {
        const res = await as(client, token, '/data/datatable/pages', query);
        expect([query, res.status, res.body.data]).toEqual([query, 200, expected.body.data]);
      }
      const compare = await as(client, token, '/data/compare', WIDE);
      expect(compare.body.data.periods.current).toEqual({ date_start: '2026-01-09', date_end: '2026-01-11' });
    });

    it('cannot change the route or the report with a body or a method override', async () => {
      const headers = { 'x-svc-share-token': token, 'x-http-method-override': 'GET' };
      const post = await client.post(`${k.tk.api}/data/datatable/pages`, { headers, json: { report_id: reportId, route: '/data/datatable/referrers' } });
      expect(post.status).toBe(404);
      const other = await k.report({ name: 'Other story', recipients: [RECIPIENT], content: [{ id: 'referrers' }] });
      const data = await client.post(`${k.tk.api}/get_action/story-report-data`, { headers, json: { token, report_id: other, id: other } });
      expect(data.status).toBe(200);
      expect(data.body.data.id).toBe(reportId);
      seen.push(data.text);
      const referrers = await as(client, token, '/data/datatable/referrers', { report_id: other });
      expect(referrers.status).toBe(403);
    });

    it('loses everything once the report is disabled', async () => {
      const id = await k.report({ name: 'Switched off', recipients: [RECIPIENT], content: [{ id: 'pages' }] });
      const link = await k.share({ report_id: id });
      const viewer = (await k.visit(link.url)).client;
      expect((await as(viewer, link.token, '/data/datatable/pages')).status).toBe(200);
      await k.admin.post(`${k.tk.api}/do_action/report/update`, { json: { report: { id, enabled: false } } });
      expect((await as(viewer, link.token, '/data/datatable/pages')).status).toBe(403);
      expect((await viewer.get(link.url)).status).toBe(404);
    });

    it('shows no private report field on the story page', async () => {
      const page = await client.get(`/svc-dashboard/story/?svc_share_token=${token}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Pricing story');
      expect(page.text).not.toContain(RECIPIENT);
      seen.push(page.text);
    });
  });
});

/** A data route of the sales tab on any license, to test the license rule apart from the sales plugin. */
const salesProbe = definePlugin({
  name: 'sales-probe',
  tier: 'free',
  register(ctx) {
    ctx.statistics.dataType({
      id: 'probe',
      tab: 'sales',
      base: '/data/probe',
      allow: { metrics: [], defaultMetrics: [], groupBy: [], defaultGroupBy: [], filters: [] },
      run: async () => ({ probed: true }),
    });
  },
});

describe('the sales tab', () => {
  it('needs the business license even when a stored link lists it', async () => {
    const k = await startStoryKernel({ plugins: ['tracking', 'reports', 'story', 'sales-probe'], inline: [salesProbe] });
    try {
      const { url, token } = await k.share({ shared_tabs: ['statistics', 'sales'] });
      const db = k.tk.kernel.db;
      await db.execute(`UPDATE ${db.quote(db.table('share_tokens'))} SET shared_tabs = ? WHERE token = ?`, [JSON.stringify(['statistics', 'sales']), token]);
      const { client } = await k.visit(url);
      const res = await k.viewerGet(client, token, '/data/probe/probe');
      expect([res.status, res.body.code]).toEqual([403, 'svc_share_forbidden']);
      expect((await k.visit(`/svc-dashboard/sales/?svc_share_token=${token}`)).res.status).toBe(404);
    } finally {
      await k.close();
    }
  });

  it('on the business license, opens only for links that share it', async () => {
    const k = await startStoryKernel({ license: 'business' });
    try {
      const withSales = await k.share({ shared_tabs: ['sales'] });
      expect(withSales.url).toContain('/svc-dashboard/sales/');
      const a = await k.visit(withSales.url);
      expect(a.res.status).toBe(200);
      expect(a.res.text).toContain('id="svc-sales"');
      expect((await k.viewerGet(a.client, withSales.token, '/data/ecommerce/sales')).status).toBe(200);
      expect((await k.viewerGet(a.client, withSales.token, '/get_action/ecommerce/get_subscriptions_backfill_progress')).status).toBe(200);
      expect((await k.viewerGet(a.client, withSales.token, '/data/compare')).status).toBe(403);
      const without = await k.share({ shared_tabs: ['statistics'] });
      const b = await k.visit(without.url);
      for (const path of ['/data/ecommerce/sales', '/data/ecommerce/datatable/sales_products', '/get_action/ecommerce/get_subscriptions_backfill_progress']) {
        expect([path, (await k.viewerGet(b.client, without.token, path)).status]).toEqual([path, 403]);
      }
    } finally {
      await k.close();
    }
  });
});
