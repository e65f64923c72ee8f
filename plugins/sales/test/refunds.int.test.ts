import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, count, rows, salesKernel, visit } from './support';

const MUG = { product_id: 1, product_name: 'Mug' };
const TEA = { product_id: 2, product_name: 'Tea' };
const HAT = { product_id: 3, product_name: 'Hat' };
const MARCH = { date_start: '2025-03-01', date_end: '2025-03-31' };
const APRIL = { date_start: '2025-04-01', date_end: '2025-04-30' };

/**
 * March: O1 (DE visitor) 50 EUR = 2 Mugs at 20 + 10 shipping; O2 30 EUR = 3 Teas at 10;
 * O3 (US visitor) 100 EUR = 1 Hat. Refunds: one Mug of O1 on 20 March, all of O3 on 5 April.
 */
describe('refunds', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  const clock = new ManualClock('2025-02-01T08:00:00Z');
  const send = async (events: unknown[]) => (await admin.post(`${tk.api}/ecommerce/events`, { json: { events } })).body;
  const refund = (refund_id: string, order_id: string, day: string, extra: Record<string, unknown> = {}) => ({ type: 'refund', refund_id, order_id, time: at(`${day}T12:00:00`), ...extra });
  const get = async (type: string, query: Record<string, unknown>) => (await admin.get(`${tk.api}/data/ecommerce/${type}`, { query })).body.data;

  beforeAll(async () => {
    tk = await salesKernel({ clock });
    admin = await adminClient(tk);
    clock.set('2025-04-30T12:00:00Z');
    await visit(tk, { uid: 'de', time: at('2025-03-02T09:00:00'), country: 'DE' });
    await visit(tk, { uid: 'us', time: at('2025-03-04T09:00:00'), country: 'US' });
    const order = (order_id: string, uid: string, total: number, items: unknown[], day: string) => ({ type: 'order', order_id, uid, currency: 'EUR', total, items, time: at(`${day}T10:00:00`) });
    const res = await send([
      order('O1', 'de', 50, [{ ...MUG, quantity: 2, price: 20 }], '2025-03-02'),
      order('O2', '', 30, [{ ...TEA, quantity: 3, price: 10 }], '2025-03-03'),
      order('O3', 'us', 100, [{ ...HAT, quantity: 1, price: 100 }], '2025-03-04'),
    ]);
    expect(res).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
  });
  afterAll(() => tk.close());

  it('refuses refunds that do not fit their order, one by one, and stores nothing of them', async () => {
    const res = await send([
      refund('R-x1', 'NOPE', '2025-03-20'),
      refund('R-x2', 'O1', '2025-03-20', { amount: 50.01 }),
      refund('R-x3', 'O1', '2025-03-20', { currency: 'USD' }),
      refund('R-x4', 'O1', '2025-03-20', { items: [{ product_id: 2, quantity: 1 }] }),
      refund('R-x5', 'O1', '2025-03-20', { items: [{ product_id: 1, quantity: 3 }] }),
      refund('R-x6', 'O1', '2025-03-01'),
      refund('R-x7', 'O1', '2025-03-20', { items: [{ product_id: 1, quantity: 1, amount: 20 }, { product_id: 1, quantity: 1, amount: 20.5 }] }),
      { type: 'refund', order_id: 'O1', time: at('2025-03-20T12:00:00') },
      refund('R-x8', 'O1', '2025-03-20', { amount: -5 }),
    ]);
    expect(res).toEqual({
      accepted: 0,
      duplicates: 0,
      rejected: [
        { index: 0, code: 'svc_unknown_order', message: 'order_id NOPE is not an order this sender has sent.' },
        { index: 1, code: 'svc_invalid_field', message: 'amount is more than the 50 EUR left to refund of order O1.' },
        { index: 2, code: 'svc_invalid_field', message: "currency must be the order's currency, EUR." },
        { index: 3, code: 'svc_invalid_field', message: 'items[0].product_id 2 is not in order O1.' },
        { index: 4, code: 'svc_invalid_field', message: 'items[0].quantity is more than the 2 unit(s) of product 1 left to refund.' },
        { index: 5, code: 'svc_invalid_field', message: 'time must not be before the order was placed.' },
        { index: 6, code: 'svc_invalid_field', message: 'items[1].amount is more than the 40 EUR of product 1 left to refund.' },
        { index: 7, code: 'svc_missing_field', message: 'refund_id is required.' },
        { index: 8, code: 'svc_invalid_field', message: 'amount must be a number of at least 0.' },
      ],
    });
    expect(await count(tk, 'ecommerce_refunds')).toBe(0);
    expect(await count(tk, 'ecommerce_received')).toBe(0);
  });

  it('takes a partial refund of named products and a full refund without details, each once', async () => {
    const first = await send([
      { id: 'ev-r1', ...refund('R1', 'O1', '2025-03-20', { items: [{ product_id: 1, quantity: 1 }] }) },
      refund('R1', 'O1', '2025-03-20', { items: [{ product_id: 1, quantity: 1 }] }),
      refund('R2', 'O3', '2025-04-05'),
    ]);
    expect(first).toEqual({ accepted: 2, duplicates: 1, rejected: [] });
    const again = await send([{ id: 'ev-r1', ...refund('R1', 'O1', '2025-03-20') }, refund('R2', 'O3', '2025-04-05')]);
    expect(again).toEqual({ accepted: 0, duplicates: 2, rejected: [] });
    const full = await send([refund('R3', 'O3', '2025-04-06')]);
    expect(full.rejected).toEqual([{ index: 0, code: 'svc_invalid_field', message: 'order O3 has been refunded in full already.' }]);
    expect((await rows(tk, 'ecommerce_refunds')).map((r) => [r.refund_id, Number(r.amount), r.currency])).toEqual([
      ['R1', 20, 'EUR'],
      ['R2', 100, 'EUR'],
    ]);
    expect((await rows(tk, 'ecommerce_refund_items')).map((i) => [Number(i.product_id), i.product_name, Number(i.quantity), Number(i.amount)])).toEqual([
      [1, 'Mug', 1, 20],
      [3, 'Hat', 1, 100],
    ]);
  });

  it('subtracts refunds from revenue and average order in the period of the refund, and reports total_refunded', async () => {
    const march = await get('sales', { ...MARCH, metrics: 'revenue,average-order' });
    expect(march.revenue.current).toEqual({ total_orders: 3, total_revenue: 160, average_order_value: 53.33, total_refunded: 20, currency: 'EUR' });
    expect(march['average-order'].current).toEqual(march.revenue.current);
    const april = await get('sales', { ...APRIL, metrics: 'revenue' });
    expect(april.revenue.current).toEqual({ total_orders: 0, total_revenue: -100, average_order_value: 0, total_refunded: 100, currency: 'EUR' });
    expect(april.revenue.previous).toEqual(march.revenue.current);
  });

  it('subtracts refunds from top performers and product figures in the period of the refund', async () => {
    const march = await get('top-performers', MARCH);
    expect(march['top-product'].current).toEqual({ product_name: 'Hat', product_id: 3, total_quantity_sold: 1, total_revenue: 100, currency: 'EUR' });
    expect(march['top-country'].current).toEqual({ country_code: 'US', total_revenue: 100, currency: 'EUR' });
    const de = await get('top-performers', { ...MARCH, filters: 'country:DE', metrics: 'top-product,top-country' });
    expect(de['top-product'].current).toEqual({ product_name: 'Mug', product_id: 1, total_quantity_sold: 1, total_revenue: 20, currency: 'EUR' });
    expect(de['top-country'].current).toEqual({ country_code: 'DE', total_revenue: 30, currency: 'EUR' });
    // April only gave money back: nothing tops it, and the Hat's April figure is the refund.
    const april = await get('top-performers', { ...APRIL, metrics: 'top-product,top-country' });
    expect(april['top-product'].current).toEqual({ product_name: '', product_id: 0, total_quantity_sold: 0, total_revenue: 0, currency: 'EUR' });
    expect(april['top-country'].current).toEqual({ country_code: '', total_revenue: 0, currency: 'EUR' });
    const products = await get('datatable/sales_products', { ...MARCH, metrics: 'product,sales,revenue' });
    expect(products).toEqual([
      { product_id: 3, currency: 'EUR', product: 'Hat', sales: 1, revenue: { currency: 'EUR', value: 100 } },
      { product_id: 2, currency: 'EUR', product: 'Tea', sales: 3, revenue: { currency: 'EUR', value: 30 } },
      { product_id: 1, currency: 'EUR', product: 'Mug', sales: 1, revenue: { currency: 'EUR', value: 20 } },
    ]);
    expect(await get('datatable/sales_products', { ...APRIL, metrics: 'sales,revenue' })).toEqual([
      { product_id: 3, currency: 'EUR', sales: -1, revenue: { currency: 'EUR', value: -100 } },
    ]);
  });

  it('spreads a partial refund without products over the order lines, and takes an order and its refund in one call', async () => {
    const res = await send([
      { type: 'order', order_id: 'O4', currency: 'EUR', total: 40, items: [{ ...MUG, quantity: 1, price: 30 }, { ...TEA, quantity: 1, price: 10 }], time: at('2025-04-10T10:00:00') },
      refund('R4', 'O4', '2025-04-11', { amount: 8 }),
      refund('R5', 'O4', '2025-04-12', { amount: '32', currency: 'eur' }),
    ]);
    expect(res).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    const items = (await rows(tk, 'ecommerce_refund_items')).slice(2).map((i) => [Number(i.product_id), Number(i.quantity), Number(i.amount)]);
    // R4: 8 spread 3:1 by line value, no units; R5 (the rest): the units and the value left.
    expect(items).toEqual([
      [1, 0, 6],
      [2, 0, 2],
      [1, 1, 24],
      [2, 1, 8],
    ]);
    const april = await get('sales', { ...APRIL, metrics: 'revenue' });
    expect(april.revenue.current).toMatchObject({ total_orders: 1, total_revenue: -100, total_refunded: 140 });
  });
  it('takes a burst of concurrent refunds of one order no further than the order goes, and each refund id once', async () => {
    expect(await send([{ type: 'order', order_id: 'O9', currency: 'EUR', total: 30, items: [{ ...TEA, quantity: 3, price: 10 }], time: at('2025-02-10T10:00:00') }])).toMatchObject({ accepted: 1 });
    const one = (id: string) => refund(id, 'O9', '2025-02-11', { items: [{ product_id: 2, quantity: 1 }] });
    const answers = await Promise.all([...Array.from({ length: 8 }, (_, i) => send([one(`B${i}`)])), ...Array.from({ length: 4 }, () => send([one('BX')]))]);
    for (const answer of answers) expect(answer).toEqual({ accepted: expect.any(Number), duplicates: expect.any(Number), rejected: expect.any(Array) });
    expect(answers.reduce((n, a) => n + a.accepted, 0)).toBe(3);
    const [order] = (await rows(tk, 'ecommerce_orders')).filter((o) => o.order_id === 'O9');
    const stored = (await rows(tk, 'ecommerce_refunds')).filter((r) => Number(r.order_ref) === Number(order!.ID));
    expect(stored).toHaveLength(3);
    expect(stored.reduce((n, r) => n + Number(r.amount), 0)).toBe(30);
    expect(new Set(stored.map((r) => r.refund_id)).size).toBe(3);
  });
});
