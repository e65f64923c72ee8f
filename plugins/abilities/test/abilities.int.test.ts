import { DEFAULT_SITE_ID } from '../../../core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { buildShop } from '../../../test/helpers/shop';
import { FEBRUARY, MARCH, SHOP } from './shop';
import { abilitiesBase, budgetFilters, budgets, eventually, listed, mcpClient, setAbilitiesOption, toolError, userWithPassword } from './support';

const money = (value: number, currency: string) => ({ currency, value });

const MARCH_SALES = [
  { product_id: 1, currency: 'EUR', product: 'Mug', sales: 3, revenue: money(30, 'EUR') },
  { product_id: 3, currency: 'USD', product: 'Hat', sales: 1, revenue: money(30, 'USD') },
  { product_id: 2, currency: 'EUR', product: 'Tea', sales: 3, revenue: money(15, 'EUR') },
];

const MARCH_PLANS = [
  {
    product_id: 100,
    plan: 'Box Monthly',
    currency: 'EUR',
    active_subscribers: 1,
    canceled_subscribers: 1,
    trialling_subscribers: 0,
    monthly_recurring_revenue: money(20, 'EUR'),
    product_churn_value: 0,
  },
  {
    product_id: 300,
    plan: 'Pro',
    currency: 'USD',
    active_subscribers: 0,
    canceled_subscribers: 0,
    trialling_subscribers: 1,
    monthly_recurring_revenue: money(0, 'USD'),
    product_churn_value: 0,
  },
];

describe('abilities svc/sales-data and svc/subscriptions-data', () => {
  let tk: TestKernel;
  let base: string;
  let admin: HttpClient;
  let adminPassword: string;
  let mcp: Client;

  const run = (client: HttpClient, name: string, input: unknown) => client.post(`${base}/abilities/svc/${name}/run`, { json: { input } });

  beforeAll(async () => {
    tk = await createTestKernel({
      plugins: ['sales', 'abilities'],
      inline: [budgetFilters],
      env: { SVC_LICENSE: 'business' },
      clock: new ManualClock('2025-04-01T12:00:00Z'),
    });
    base = abilitiesBase(tk);
    ({ client: admin, password: adminPassword } = await userWithPassword(tk, tk.admin.login, 'administrator'));
    await buildShop(tk, admin, SHOP);
    await setAbilitiesOption(tk, true);
    await eventually(async () => (await listed(tk, admin)).includes('svc/sales-data'));
    mcp = await mcpClient(tk.url, tk.admin.login, adminPassword);
  });
  afterAll(async () => {
    await mcp?.close();
    await tk?.close();
  });
  afterEach(() => {
    budgets.max.clear();
    budgets.window.clear();
  });

  it('describes both abilities in the svc-statistics category', async () => {
    const { body } = await admin.get(`${base}/abilities`, { query: { category: 'svc-statistics' } });
    expect(body.map((a: { name: string }) => a.name).sort()).toEqual(['svc/sales-data', 'svc/subscriptions-data']);
    const sales = body.find((a: { name: string }) => a.name === 'svc/sales-data');
    expect(sales.meta.annotations.readonly).toBe(true);
    expect(sales.input_schema.properties.metrics.default).toEqual(['product', 'sales', 'revenue']);
    expect(sales.input_schema.properties.limit.default).toBe(100);
    const subs = (await admin.get(`${base}/abilities/svc/subscriptions-data`)).body;
    expect(subs.input_schema.properties.group_by.default).toEqual(['plan']);
    expect(subs.input_schema.properties.metrics.default).toHaveLength(6);
    expect((await admin.get(`${base}/categories`)).body.map((c: { slug: string }) => c.slug)).toContain('svc-statistics');
  });

  it('answers sales per product for a period over REST (§2.11)', async () => {
    const res = await run(admin, 'sales-data', MARCH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'datatable',
      dimensions: [{ id: 'product', label: 'Product' }],
      metrics: [
        { id: 'product', label: 'Product' },
        { id: 'sales', label: 'Units sold' },
        { id: 'revenue', label: 'Revenue' },
      ],
      rows: MARCH_SALES,
      row_count: 3,
    });
    const february = await run(admin, 'sales-data', { ...FEBRUARY, metrics: ['sales'] });
    expect(february.body.rows).toEqual([{ product_id: 2, currency: 'EUR', sales: 10 }]);
  });

  it('answers subscriptions per plan over REST (§2.11)', async () => {
    const res = await run(admin, 'subscriptions-data', MARCH);
    expect(res.status).toBe(200);
    expect(res.body.dimensions).toEqual([{ id: 'plan', label: 'Plan' }]);
    expect(res.body.metrics.map((m: { id: string }) => m.id)).toEqual([
      'plan',
      'active_subscribers',
      'canceled_subscribers',
      'trialling_subscribers',
      'monthly_recurring_revenue',
      'product_churn_value',
    ]);
    expect(res.body.rows).toEqual(MARCH_PLANS);
    expect(res.body.row_count).toBe(2);
  });

  it('answers the same over MCP with the SDK client', async () => {
    const { tools } = await mcp.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['svc-sales-data', 'svc-subscriptions-data']));
    expect(tools.find((t) => t.name === 'svc-sales-data')?.annotations?.readOnlyHint).toBe(true);
    const sales = await mcp.callTool({ name: 'svc-sales-data', arguments: MARCH });
    expect(sales.isError).toBeFalsy();
    expect(sales.structuredContent).toMatchObject({ type: 'datatable', rows: MARCH_SALES, row_count: 3 });
    expect(JSON.parse((sales.content as Array<{ text: string }>)[0]!.text)).toEqual(sales.structuredContent);
    const subs = await mcp.callTool({ name: 'svc-subscriptions-data', arguments: { ...MARCH, metrics: ['plan', 'active_subscribers'], limit: 1 } });
    expect(subs.structuredContent).toMatchObject({
      metrics: [
        { id: 'plan', label: 'Plan' },
        { id: 'active_subscribers', label: 'Active subscriptions' },
      ],
      rows: [{ product_id: 100, plan: 'Box Monthly', currency: 'EUR', active_subscribers: 1 }],
      row_count: 1,
    });
  });

  it('runs with GET and a JSON input, as read-only abilities may', async () => {
    const res = await admin.get(`${base}/abilities/svc/sales-data/run`, { query: { input: JSON.stringify({ ...MARCH, metrics: ['revenue'], limit: 1 }) } });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([{ product_id: 1, currency: 'EUR', revenue: money(30, 'EUR') }]);
  });

  it('intersects metrics with the allow-list and falls back to the defaults', async () => {
    const some = await run(admin, 'sales-data', { ...MARCH, metrics: ['adds_to_cart', 'bogus', 'adds_to_cart', 'active_subscribers'] });
    expect(some.body.metrics).toEqual([{ id: 'adds_to_cart', label: 'Adds to cart' }]);
    expect(some.body.rows[0]).toEqual({ product_id: 1, currency: 'EUR', adds_to_cart: 2 });
    for (const metrics of [['bogus'], []]) {
      const fallback = await run(admin, 'sales-data', { ...MARCH, metrics });
      expect(fallback.body.metrics.map((m: { id: string }) => m.id)).toEqual(['product', 'sales', 'revenue']);
      expect(fallback.body.rows).toEqual(MARCH_SALES);
    }
    const subs = await run(admin, 'subscriptions-data', { ...MARCH, metrics: ['revenue'] });
    expect(subs.body.metrics).toHaveLength(6);
  });

  it('clamps limit to 1-500', async () => {
    for (const limit of [0, -7, 1]) expect((await run(admin, 'sales-data', { ...MARCH, limit })).body.rows).toHaveLength(1);
    const many = await run(admin, 'sales-data', { ...MARCH, limit: 100_000 });
    expect(many.status).toBe(200);
    expect(many.body.row_count).toBe(3);
  });

  it('reads unix dates as days of the site timezone; 0 means the last 30 days', async () => {
    const midday = await run(admin, 'sales-data', { date_start: MARCH.date_start + 43_200, date_end: MARCH.date_end + 86_399 });
    expect(midday.body.rows).toEqual(MARCH_SALES);
    const lastMonth = await run(admin, 'sales-data', {});
    expect(lastMonth.body.row_count).toBe(3);
    const ended = await run(admin, 'sales-data', { date_end: FEBRUARY.date_end });
    expect(ended.body.rows.map((r: { product: string }) => r.product)).toEqual(['Tea']);
    const reversed = await run(admin, 'sales-data', { date_start: MARCH.date_end, date_end: MARCH.date_start });
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('svc_invalid_date');
    const beyond = await run(admin, 'sales-data', { date_start: 1e15 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.code).toBe('svc_invalid_date');
  });

  it('applies filters and appends the type filter', async () => {
    const us = await run(admin, 'sales-data', { ...MARCH, filters: [{ key: 'country', value: 'US' }] });
    expect(us.body.rows).toEqual([MARCH_SALES[1]]);
    const noValue = await run(admin, 'sales-data', { ...MARCH, filters: [{ key: 'country' }, { key: 'type', value: '' }] });
    expect(noValue.body.rows).toEqual(MARCH_SALES);
    const purchase = await run(admin, 'sales-data', { ...MARCH, filters: [{ key: 'type', value: 'purchase' }] });
    expect(purchase.body.rows).toEqual(MARCH_SALES);
    const contradicting = await run(admin, 'sales-data', { ...MARCH, filters: [{ key: 'type', value: 'subscription' }] });
    expect(contradicting.body).toMatchObject({ rows: [], row_count: 0 });
    const unknown = await run(admin, 'subscriptions-data', { ...MARCH, filters: [{ key: 'device', value: 'Mobile' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('svc_invalid_filter');
  });

  it('normalises group_by utm_source to source: revenue and units per first-touch traffic source', async () => {
    const res = await run(admin, 'sales-data', { ...MARCH, group_by: ['utm_source'] });
    expect(res.status).toBe(200);
    // Only the Hat buyer has a tracked visit (no referrer, no UTM fields: direct); the other orders have none ('').
    expect(res.body).toEqual({
      type: 'datatable',
      dimensions: [{ id: 'source', label: 'Source' }],
      metrics: [{ id: 'sales', label: 'Units sold' }, { id: 'revenue', label: 'Revenue' }],
      rows: [
        { source: '', currency: 'EUR', sales: 6, revenue: money(45, 'EUR') },
        { source: 'direct', currency: 'USD', sales: 1, revenue: money(30, 'USD') },
      ],
      row_count: 2,
    });
    const subscriptions = await run(admin, 'subscriptions-data', { ...MARCH, group_by: ['utm_source'], metrics: ['active_subscribers'] });
    expect(subscriptions.body.rows).toEqual([
      { source: '', currency: 'EUR', active_subscribers: 1 },
      { source: '', currency: 'USD', active_subscribers: 0 },
    ]);
    const bad = await run(admin, 'sales-data', { ...MARCH, group_by: ['browser'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'svc_invalid_group_by', message: 'Cannot group by browser here.' });
    const plan = await run(admin, 'subscriptions-data', { ...MARCH, group_by: ['plan', 'plan'] });
    expect(plan.body.dimensions).toEqual([{ id: 'plan', label: 'Plan' }]);
    const defaulted = await run(admin, 'sales-data', { ...MARCH, group_by: [] });
    expect(defaulted.body.dimensions).toEqual([{ id: 'product', label: 'Product' }]);
  });

  it('refuses input outside the schema with 400', async () => {
    for (const input of [{ limit: 'ten' }, { limit: 2.5 }, { date_start: -1 }, { metrics: 'sales' }, { filters: [{ value: 'US' }] }, { filters: [{ key: 'country', value: { a: 1 } }] }, { colour: 'red' }]) {
      const res = await run(admin, 'sales-data', input);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ability_invalid_input');
    }
    const viaMcp = await mcp.callTool({ name: 'svc-sales-data', arguments: { limit: 'ten' } });
    expect(toolError(viaMcp)).toMatchObject({ code: 'ability_invalid_input', status: 400 });
  });

  it('rejects anonymous callers and users without manage_svc_statistics with svc_abilities_forbidden', async () => {
    const anonymous = await run(tk.client(), 'sales-data', MARCH);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toMatchObject({ success: false, code: 'svc_abilities_forbidden' });
    const editor = await userWithPassword(tk, 'editor', 'editor');
    for (const name of ['sales-data', 'subscriptions-data']) {
      const res = await run(editor.client, name, MARCH);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('svc_abilities_forbidden');
    }
    const editorMcp = await mcpClient(tk.url, 'editor', editor.password);
    expect(toolError(await editorMcp.callTool({ name: 'svc-sales-data', arguments: MARCH }))).toEqual({
      code: 'svc_abilities_forbidden',
      message: expect.stringContaining('manage_svc_statistics'),
      status: 403,
    });
    await editorMcp.close();
  });

  it('limits runs per user and ability through the filters, over REST and MCP together', async () => {
    const limited = await userWithPassword(tk, 'limited', 'administrator');
    const other = await userWithPassword(tk, 'other', 'administrator');
    budgets.max.set('sales-data', 3);
    for (let i = 0; i < 2; i++) expect((await run(limited.client, 'sales-data', MARCH)).status).toBe(200);
    const viaMcp = await mcpClient(tk.url, 'limited', limited.password);
    expect((await viaMcp.callTool({ name: 'svc-sales-data', arguments: MARCH })).isError).toBeFalsy();
    const refused = await run(limited.client, 'sales-data', MARCH);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('svc_abilities_rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(toolError(await viaMcp.callTool({ name: 'svc-sales-data', arguments: MARCH }))).toMatchObject({ code: 'svc_abilities_rate_limited', status: 429 });
    await viaMcp.close();
    expect((await run(limited.client, 'subscriptions-data', MARCH)).status).toBe(200);
    expect((await run(other.client, 'sales-data', MARCH)).status).toBe(200);
  });

  it('starts a new window when the filtered one has passed', async () => {
    const user = await userWithPassword(tk, 'windowed', 'administrator');
    budgets.max.set('subscriptions-data', 1);
    budgets.window.set('subscriptions-data', 30);
    expect((await run(user.client, 'subscriptions-data', MARCH)).status).toBe(200);
    const refused = await run(user.client, 'subscriptions-data', MARCH);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);
    (tk.clock as ManualClock).advance(wait);
    expect((await run(user.client, 'subscriptions-data', MARCH)).status).toBe(200);
  });

  it('falls back to the default budget when a filter answers nonsense', async () => {
    const user = await userWithPassword(tk, 'nonsense', 'administrator');
    budgets.max.set('sales-data', 0);
    for (let i = 0; i < 3; i++) expect((await run(user.client, 'sales-data', MARCH)).status).toBe(200);
  });

  describe('failures underneath', () => {
    const rename = (from: string, to: string) =>
      tk.kernel.db.execute(`ALTER TABLE ${tk.kernel.db.quote(tk.kernel.db.table(from))} RENAME TO ${tk.kernel.db.quote(tk.kernel.db.table(to))}`);

    it('answers svc_abilities_execution_failed when the query throws, logging the failure without leaking it', async () => {
      await rename('ecommerce_order_items', 'items_away');
      try {
        const res = await run(admin, 'sales-data', MARCH);
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ success: false, code: 'svc_abilities_execution_failed', message: expect.any(String) });
        expect(res.text).not.toContain('ecommerce_order_items');
        expect(toolError(await mcp.callTool({ name: 'svc-sales-data', arguments: MARCH }))).toMatchObject({ code: 'svc_abilities_execution_failed', status: 500 });
        expect(tk.logs.some((l) => l.ability === 'svc/sales-data' && String(l.msg).includes('ecommerce_order_items'))).toBe(true);
      } finally {
        await rename('items_away', 'ecommerce_order_items');
      }
      expect((await run(admin, 'sales-data', MARCH)).status).toBe(200);
    });

    it('answers svc_abilities_unavailable when the shared rate-limit counters cannot be reached', async () => {
      await rename('rate_limits', 'rate_limits_away');
      try {
        const res = await run(admin, 'subscriptions-data', MARCH);
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('svc_abilities_unavailable');
        expect(res.text).not.toContain('rate_limits');
        expect(toolError(await mcp.callTool({ name: 'svc-subscriptions-data', arguments: MARCH }))).toMatchObject({ code: 'svc_abilities_unavailable', status: 503 });
        expect(tk.logs.some((l) => l.ability === 'subscriptions-data' && String(l.msg).includes('rate limit unavailable'))).toBe(true);
      } finally {
        await rename('rate_limits_away', 'rate_limits');
      }
      expect((await run(admin, 'subscriptions-data', MARCH)).status).toBe(200);
    });
  });

  it('shares svc_abilities_unknown_datatable and svc_abilities_invalid_metrics with the sales datatables', async () => {
    const unknown = await admin.get(`${tk.api}/data/ecommerce/datatable/orders`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, code: 'svc_abilities_unknown_datatable', message: 'Unknown datatable endpoint.' });
    const sales = tk.kernel.services.get('sales')!;
    await expect(sales.datatable('orders', { siteId: DEFAULT_SITE_ID, query: {} })).rejects.toMatchObject({ code: 'svc_abilities_unknown_datatable', status: 404 });
    await expect(sales.datatable('sales_products', { siteId: DEFAULT_SITE_ID, query: { metrics: ['bogus'] }, defaultMetrics: ['plan'] })).rejects.toMatchObject({
      code: 'svc_abilities_invalid_metrics',
      status: 400,
    });
  });
});
