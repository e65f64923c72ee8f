import { DEFAULT_SITE_ID } from '../../../core';
import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, rows, salesKernel, visit } from './support';

const MARCH = { date_start: '2025-03-01', date_end: '2025-03-31' };
const MUG = { product_id: 1, product_name: 'Mug' };
const TEA = { product_id: 2, product_name: 'Tea' };
const BOX = { product_id: 100, product_name: 'Box', amount: 20, currency: 'EUR', billing_period: 'month', billing_interval: 1 };
const money = (value: number) => ({ currency: 'EUR', value });

/**
 * Visitors and where they first came from:
 * - `news`: first by a newsletter link (utm_source=Newsletter), later from Google;
 * - `search`: from www.google.com;
 * - `typed`: no referrer and no UTM fields (direct);
 * and an order and a subscription without a uid (no tracked visit).
 */
describe('the traffic source of orders, carts and subscriptions', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  const table = (id: string, query: Record<string, unknown>) => admin.get(`${tk.api}/data/ecommerce/datatable/${id}`, { query: { ...MARCH, ...query } });

  beforeAll(async () => {
    const clock = new ManualClock('2025-02-01T08:00:00Z');
    tk = await salesKernel({ clock });
    admin = await adminClient(tk);
    clock.set('2025-03-31T12:00:00Z');
    await visit(tk, { uid: 'news', time: at('2025-03-01T09:00:00'), parameters: 'utm_source=Newsletter&utm_campaign=spring' });
    await visit(tk, { uid: 'news', time: at('2025-03-05T09:00:00'), referrer: 'https://www.google.com/search?q=mug' });
    await visit(tk, { uid: 'search', time: at('2025-03-02T09:00:00'), referrer: 'https://www.Google.com/search?q=tea' });
    await visit(tk, { uid: 'typed', time: at('2025-03-03T09:00:00') });
    const order = (order_id: string, uid: string, items: Array<Record<string, unknown>>, day: string) => ({
      type: 'order', order_id, uid, currency: 'EUR', total: items.reduce((n, i) => n + Number(i.quantity) * Number(i.price), 0), items, time: at(`${day}T10:00:00`),
    });
    const sub = (id: string, event: string, day: string, uid?: string) => ({ type: 'subscription', id: `${id}-${event}`, subscription_id: id, event, ...BOX, time: at(`${day}T10:00:00`), ...(uid ? { uid } : {}) });
    const events = [
      order('A1', 'news', [{ ...MUG, quantity: 2, price: 10 }], '2025-03-05'),
      order('B1', 'search', [{ ...MUG, quantity: 1, price: 10 }, { ...TEA, quantity: 1, price: 5 }], '2025-03-02'),
      order('C1', 'typed', [{ ...TEA, quantity: 2, price: 5 }], '2025-03-03'),
      order('N1', '', [{ ...MUG, quantity: 1, price: 10 }], '2025-03-04'),
      { type: 'add_to_cart', uid: 'search', ...MUG, quantity: 1, price: 10, currency: 'EUR', time: at('2025-03-02T09:05:00') },
      sub('X', 'created', '2025-03-06', 'news'),
      sub('Y', 'created', '2025-03-07', 'search'),
      sub('Z', 'created', '2025-03-08'),
      sub('Z', 'renewed', '2025-03-20', 'typed'),
    ];
    const res = await admin.post(`${tk.api}/ecommerce/events`, { json: { events } });
    expect(res.body).toEqual({ accepted: events.length, duplicates: 0, rejected: [] });
  });
  afterAll(() => tk.close());

  it("stores the visitor's first-touch source at ingestion: UTM source, else the referrer's domain, else direct; '' without a visit", async () => {
    expect((await rows(tk, 'ecommerce_orders')).map((o) => [o.order_id, o.traffic_source])).toEqual([
      ['A1', 'Newsletter'],
      ['B1', 'google.com'],
      ['C1', 'direct'],
      ['N1', ''],
    ]);
    expect((await rows(tk, 'ecommerce_events')).map((e) => e.traffic_source)).toEqual(['google.com']);
    // Z was sent without a uid first; its renewal named the subscriber.
    expect((await rows(tk, 'subscriptions')).map((s) => [s.subscription_id, s.uid, s.traffic_source])).toEqual([
      ['X', 'news', 'Newsletter'],
      ['Y', 'search', 'google.com'],
      ['Z', 'typed', 'direct'],
    ]);
  });

  it('groups sales_products by source: revenue and units per traffic source and currency', async () => {
    const bySource = await table('sales_products', { group_by: 'source' });
    expect(bySource.status).toBe(200);
    // Rows by source have no product name; most revenue first, then most units.
    expect(bySource.body.data).toEqual([
      { source: 'Newsletter', currency: 'EUR', adds_to_cart: 0, sales: 2, revenue: money(20) },
      { source: 'google.com', currency: 'EUR', adds_to_cart: 1, sales: 2, revenue: money(15) },
      { source: 'direct', currency: 'EUR', adds_to_cart: 0, sales: 2, revenue: money(10) },
      { source: '', currency: 'EUR', adds_to_cart: 0, sales: 1, revenue: money(10) },
    ]);
    const both = await table('sales_products', { group_by: ['product', 'source'], metrics: 'product,sales' });
    expect(both.body.data).toEqual([
      { product_id: 1, source: 'Newsletter', currency: 'EUR', product: 'Mug', sales: 2 },
      { product_id: 2, source: 'direct', currency: 'EUR', product: 'Tea', sales: 2 },
      { product_id: 1, source: 'google.com', currency: 'EUR', product: 'Mug', sales: 1 },
      { product_id: 1, source: '', currency: 'EUR', product: 'Mug', sales: 1 },
      { product_id: 2, source: 'google.com', currency: 'EUR', product: 'Tea', sales: 1 },
    ]);
    const byProduct = await table('sales_products', {});
    expect(byProduct.body.data.map((r: Record<string, unknown>) => [r.product_id, r.sales])).toEqual([[1, 4], [2, 3]]);
  });

  it('groups subscription_products by source', async () => {
    const res = await table('subscription_products', { group_by: 'source', metrics: 'active_subscribers,monthly_recurring_revenue,plan' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { source: 'direct', currency: 'EUR', active_subscribers: 1, monthly_recurring_revenue: money(20) },
      { source: 'google.com', currency: 'EUR', active_subscribers: 1, monthly_recurring_revenue: money(20) },
      { source: 'Newsletter', currency: 'EUR', active_subscribers: 1, monthly_recurring_revenue: money(20) },
    ]);
    const byPlan = await table('subscription_products', { metrics: 'active_subscribers' });
    expect(byPlan.body.data).toEqual([{ product_id: 100, plan: 'Box', currency: 'EUR', active_subscribers: 3 }]);
  });

  it('offers the grouping through the sales service with the abilities rules (utm_source is the source)', async () => {
    const sales = tk.kernel.services.get('sales')!;
    const run = await sales.datatable('sales_products', { siteId: DEFAULT_SITE_ID, query: { ...MARCH, group_by: ['source'] }, defaultMetrics: ['product', 'sales', 'revenue'] });
    expect(run.metrics).toEqual(['sales', 'revenue']);
    expect(run.rows[0]).toEqual({ source: 'Newsletter', currency: 'EUR', sales: 2, revenue: money(20) });
    const subs = await sales.datatable('subscription_products', { siteId: DEFAULT_SITE_ID, query: { ...MARCH, group_by: ['source'], metrics: ['plan'] }, defaultMetrics: ['plan', 'active_subscribers'] });
    expect(subs.metrics).toEqual(['active_subscribers']);
  });
  it('keeps sources that differ in case apart, on every database', async () => {
    await visit(tk, { uid: 'upper', time: at('2025-02-03T09:00:00'), parameters: 'utm_source=Newsletter' });
    await visit(tk, { uid: 'lower', time: at('2025-02-04T09:00:00'), parameters: 'utm_source=newsletter' });
    const order = (order_id: string, uid: string, day: string) => ({ type: 'order', order_id, uid, currency: 'EUR', total: 10, items: [{ ...MUG, quantity: 1, price: 10 }], time: at(`${day}T10:00:00`) });
    expect((await admin.post(`${tk.api}/ecommerce/events`, { json: { events: [order('F1', 'upper', '2025-02-03'), order('F2', 'lower', '2025-02-04')] } })).body).toMatchObject({ accepted: 2 });
    const bySource = await table('sales_products', { date_start: '2025-02-01', date_end: '2025-02-28', group_by: 'source', metrics: 'sales' });
    expect(bySource.body.data.map((r: { source: string; sales: number }) => [r.source, r.sales]).sort()).toEqual([
      ['Newsletter', 1],
      ['newsletter', 1],
    ]);
  });
});
