import { ManualClock, type Site } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, rows, salesKernel } from './support';

const RANGE = { date_start: '2025-03-01', date_end: '2025-03-10' };
type Json = Record<string, any>;

describe('sales of two sites', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let shop: Site;
  const ingest = (events: unknown[], site?: number) => admin.post(`${tk.api}/ecommerce/events`, { json: site === undefined ? { events } : { site, events } });
  const data = async (path: string, site?: number, query: Json = {}) => {
    const res = await admin.get(`${tk.api}/data/ecommerce/${path}`, { query: { ...RANGE, ...query, ...(site === undefined ? {} : { site }) } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const sales = async (site?: number) => (await data('sales', site))['average-order'].current;
  const order = (total: number, product: { product_id: number; product_name: string }) => ({
    type: 'order',
    order_id: 'A-1',
    currency: 'EUR',
    total,
    items: [{ ...product, quantity: 1, price: total }],
    time: at('2025-03-05T10:00:00'),
  });
  const box = (id: string, product_name: string, amount: number) => ({
    type: 'subscription',
    subscription_id: id,
    event: 'created',
    product_id: 100,
    product_name,
    amount,
    currency: 'EUR',
    billing_period: 'month',
    billing_interval: 1,
    time: at('2025-03-04T10:00:00'),
  });

  beforeAll(async () => {
    tk = await salesKernel({ clock: new ManualClock('2025-03-10T12:00:00Z') });
    admin = await adminClient(tk);
    shop = await tk.kernel.sites.add({ name: 'Second Shop', domain: 'shop.example', timezone: 'UTC' });
  });
  afterAll(() => tk?.close());

  it('stores each site\'s events on it: the same order id is a new order on another site, a repeat on its own', async () => {
    expect((await ingest([order(10, { product_id: 1, product_name: 'Mug' }), box('s-1', 'Blog plan', 5)])).body).toMatchObject({ accepted: 2, duplicates: 0 });
    expect((await ingest([order(70, { product_id: 2, product_name: 'Hat' }), box('s-1', 'Shop plan', 30)], shop.id)).body).toMatchObject({ accepted: 2, duplicates: 0 });
    expect((await ingest([order(70, { product_id: 2, product_name: 'Hat' })], shop.id)).body).toMatchObject({ accepted: 0, duplicates: 1 });
    expect((await rows(tk, 'ecommerce_orders')).map((r) => [Number(r.site_id), r.order_id, Number(r.total)])).toEqual([
      [1, 'A-1', 10],
      [shop.id, 'A-1', 70],
    ]);
  });

  it('shows each site its own sales, products and subscriptions only', async () => {
    expect(await sales()).toMatchObject({ total_orders: 1, total_revenue: 10 });
    expect(await sales(shop.id)).toMatchObject({ total_orders: 1, total_revenue: 70 });
    const products = async (site?: number) => ((await data('datatable/sales_products', site)) as Json[]).map((r) => r.product);
    expect(await products()).toEqual(['Mug']);
    expect(await products(shop.id)).toEqual(['Hat']);
    const plans = async (site?: number) => ((await data('datatable/subscription_products', site)) as Json[]).map((r) => r.plan);
    expect(await plans()).toEqual(['Blog plan']);
    expect(await plans(shop.id)).toEqual(['Shop plan']);
  });

  it('refunds the order of the site the refund names, and no other', async () => {
    const refund = { type: 'refund', refund_id: 'R-1', order_id: 'A-1', amount: 20, time: at('2025-03-06T10:00:00') };
    expect((await ingest([refund], shop.id)).body).toMatchObject({ accepted: 1, rejected: [] });
    expect(await sales(shop.id)).toMatchObject({ total_revenue: 50, total_refunded: 20 });
    expect(await sales()).toMatchObject({ total_revenue: 10, total_refunded: 0 });
    // The default site's order has 10 left: the shop's refund took nothing of it.
    const tooMuch = await ingest([{ ...refund, refund_id: 'R-2', amount: 15 }]);
    expect(tooMuch.body.rejected).toEqual([expect.objectContaining({ index: 0, code: 'svc_invalid_field' })]);
  });
});
