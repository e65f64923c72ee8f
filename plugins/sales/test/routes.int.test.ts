import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, salesKernel, userClient } from './support';

const TYPES = ['sales', 'top-performers', 'quick-wins', 'sales-funnel', 'subscriptions', 'subscriptions-revenue-chart', 'subscriptions-distribution', 'subscriptions-retention'];

describe('ecommerce routes: capabilities, errors and empty payloads', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  beforeAll(async () => {
    tk = await salesKernel({ clock: new ManualClock('2025-03-31T12:00:00Z') });
    admin = await adminClient(tk);
  });
  afterAll(() => tk.close());

  it('needs view_sales_svc_statistics: anonymous 401, a user with only view_svc_statistics 403', async () => {
    const editor = await userClient(tk, 'viewer', 'editor');
    for (const path of [...TYPES.map((t) => `/data/ecommerce/${t}`), '/data/ecommerce/datatable/sales_products', '/data/export/sales', '/get_action/ecommerce/get_subscriptions_backfill_progress']) {
      expect((await tk.client().get(`${tk.api}${path}`)).status).toBe(401);
      const denied = await editor.get(`${tk.api}${path}`);
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ success: false, code: 'svc_forbidden' });
    }
  });

  it('offers the sales tab to holders of view_sales_svc_statistics only', async () => {
    const admin = await tk.signedIn();
    const page = await admin.get('/svc-admin/sales');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<a href="\/svc-admin\/sales"[^>]*>Sales<\/a>/);
    expect(page.text).toContain('id="svc-sales"');
    await tk.kernel.users.create({ login: 'ed2', role: 'editor', password: 'ed2-password-long' });
    const editor = await tk.signedIn('ed2', 'ed2-password-long');
    expect((await editor.get('/svc-admin/sales')).status).toBe(403);
    const account = await editor.get('/svc-admin/account');
    expect(account.status).toBe(200);
    expect(account.text).not.toContain('/svc-admin/sales"');
  });

  it('marks every sales route with the sales tab for share-link guards', () => {
    const routes = tk.kernel.rest.list().filter((r) => r.plugin === 'sales' && r.method === 'GET');
    expect(routes.length).toBeGreaterThanOrEqual(TYPES.length + 5);
    for (const route of routes) {
      expect(route.capability).toBe('view_sales_svc_statistics');
      expect(route.meta.tab).toBe('sales');
    }
  });

  it('answers 404 to unknown types and actions, 403 to the datatable route without id, 404 to unknown datatables', async () => {
    const unknownType = await admin.get(`${tk.api}/data/ecommerce/orders`);
    expect(unknownType.status).toBe(404);
    expect(unknownType.body).toEqual({ success: false, code: 'svc_unknown_data_type', message: 'Unknown ecommerce data type.' });
    expect((await admin.get(`${tk.api}/data/ecommerce/Sales`)).status).toBe(404);
    const action = await admin.get(`${tk.api}/get_action/ecommerce/start_backfill`);
    expect(action.status).toBe(404);
    expect(action.body.code).toBe('svc_unknown_action');
    for (const path of ['/data/ecommerce/datatable', '/data/ecommerce/datatable/']) {
      const generic = await admin.get(`${tk.api}${path}`);
      expect(generic.status).toBe(403);
      expect(generic.body.success).toBe(false);
    }
    const table = await admin.get(`${tk.api}/data/ecommerce/datatable/orders`);
    expect(table.status).toBe(404);
    expect(table.body).toEqual({ success: false, code: 'svc_abilities_unknown_datatable', message: 'Unknown datatable endpoint.' });
  });

  it('refuses bad common parameters with 400', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ date_start: '2025-02-30' }, 'svc_invalid_date'],
      [{ date_start: '2025-03-10', date_end: '2025-03-01' }, 'svc_invalid_date'],
      [{ filters: 'browser:Firefox' }, 'svc_invalid_filter'],
      [{ filters: '{"country":' }, 'svc_invalid_filter'],
      [{ group_by: 'country' }, 'svc_invalid_group_by'],
    ];
    for (const [query, code] of cases) {
      const res = await admin.get(`${tk.api}/data/ecommerce/sales`, { query });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code });
    }
  });

  it('answers empty payloads for the subscription types without an active integration', async () => {
    for (const type of TYPES.filter((t) => t.startsWith('subscriptions'))) {
      const res = await admin.get(`${tk.api}/data/ecommerce/${type}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], request_success: true, success: true });
    }
    expect((await admin.get(`${tk.api}/data/ecommerce/datatable/subscription_products`)).body.data).toEqual([]);
    const progress = await admin.get(`${tk.api}/get_action/ecommerce/get_subscriptions_backfill_progress`);
    expect(progress.body).toEqual({ is_processing: false, progress: 0, processed: 0, total: 0 });
  });

  it('answers zero figures and a null dateRange for a shop without data', async () => {
    const sales = await admin.get(`${tk.api}/data/ecommerce/sales`);
    expect(sales.body.data.revenue.current).toEqual({ total_orders: 0, total_revenue: 0, average_order_value: 0, total_refunded: 0, currency: 'USD' });
    const top = await admin.get(`${tk.api}/data/ecommerce/top-performers`);
    expect(top.body.data['top-product']).toEqual({
      label: 'Top product',
      current: { product_name: '', product_id: 0, total_quantity_sold: 0, total_revenue: 0, currency: 'USD' },
      previous: { product_name: '', product_id: 0, total_quantity_sold: 0, total_revenue: 0, currency: 'USD' },
      revenue_change: null,
    });
    expect((await admin.get(`${tk.api}/data/ecommerce/quick-wins`)).body.data).toEqual({ quickWins: [], dateRange: null });
  });

  it('starts answering subscription types once the ingestion API received a subscription', async () => {
    const event = {
      type: 'subscription',
      subscription_id: 'only',
      event: 'created',
      product_id: 5,
      product_name: 'Plan',
      amount: 9,
      currency: 'JPY',
      billing_period: 'week',
      billing_interval: 2,
      time: at('2025-03-30T10:00:00'),
    };
    expect((await admin.post(`${tk.api}/ecommerce/events`, { json: { events: [event] } })).body.accepted).toBe(1);
    const res = await admin.get(`${tk.api}/data/ecommerce/subscriptions`, { query: { metrics: 'monthly_recurring_revenue' } });
    // 9 JPY every two weeks: 9 × 52 / 12 / 2 = 19.5, rounded to whole yen.
    expect(res.body.data.monthly_recurring_revenue).toMatchObject({ current: { mrr: 20, count: 1 }, currency: 'JPY' });
  });
});
