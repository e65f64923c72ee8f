import { ManualClock } from '../../../core';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, salesKernel, visit } from './support';

/** A shop whose April sets off the rules the hand-built shop does not. */
describe('quick wins', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    const clock = new ManualClock('2025-03-01T08:00:00Z');
    tk = await salesKernel({ clock });
    clock.set('2025-04-30T12:00:00Z');
  });
  afterAll(() => tk.close());

  it('finds abandoned carts, checkout drop-off, falling revenue, a weak country and a page that does not sell', async () => {
    const admin = await adminClient(tk);
    const events: unknown[] = [];
    const item = (product_id: number, product_name: string) => [{ product_id, product_name, quantity: 1, price: 50 }];
    events.push({ type: 'order', order_id: 'M1', currency: 'EUR', total: 100, items: item(1, 'Mug'), time: at('2025-03-10T10:00:00') });
    events.push({ type: 'order', order_id: 'M2', currency: 'EUR', total: 100, items: item(1, 'Mug'), time: at('2025-03-11T10:00:00') });
    for (let i = 1; i <= 10; i++) {
      const uid = `de${i}`;
      await visit(tk, { uid, time: at(`2025-04-${String(i + 1).padStart(2, '0')}T09:00:00`), country: 'DE' });
      if (i > 6) continue;
      events.push({ type: 'add_to_cart', uid, product_id: 1, product_name: 'Mug', quantity: 1, price: 50, currency: 'EUR', time: at(`2025-04-${String(i + 1).padStart(2, '0')}T09:01:00`) });
      events.push({ type: 'checkout_visit', uid, url: 'https://shop.example/checkout', time: at(`2025-04-${String(i + 1).padStart(2, '0')}T09:02:00`) });
      if (i <= 2) events.push({ type: 'order', order_id: `A${i}`, uid, currency: 'EUR', total: 50, items: item(i, i === 1 ? 'Mug' : 'Tea'), time: at(`2025-04-${String(i + 1).padStart(2, '0')}T09:03:00`) });
    }
    for (let i = 1; i <= 20; i++) {
      const uid = `br${i}`;
      await visit(tk, { uid, time: at(`2025-04-${String(i + 5).padStart(2, '0')}T12:00:00`), country: 'BR' });
      events.push({ type: 'product_view', uid, product_id: 9, url: 'https://shop.example/lamp', time: at(`2025-04-${String(i + 5).padStart(2, '0')}T12:01:00`) });
      if (i <= 5) events.push({ type: 'product_view', uid, product_id: 9, url: 'https://shop.example/lamp', time: at(`2025-04-${String(i + 5).padStart(2, '0')}T12:02:00`) });
    }
    events.push({ type: 'add_to_cart', uid: 'br1', product_id: 9, product_name: 'Lamp', quantity: 1, price: 80, currency: 'EUR', time: at('2025-04-06T12:03:00') });
    expect((await admin.post(`${tk.api}/ecommerce/events`, { json: { events } })).body.rejected).toEqual([]);

    const res = await admin.get(`${tk.api}/data/ecommerce/quick-wins`, { query: { date_start: '2025-04-01', date_end: '2025-04-30' } });
    const wins = res.body.data.quickWins as Array<Record<string, string>>;
    expect(wins.map((w) => w.key)).toEqual(['abandoned_cart', 'checkout_drop_off', 'revenue_drop', 'low_converting_country_br', 'product_page_drop_off_9']);
    expect(wins.map((w) => w.message)).toEqual([
      '5 of 7 carts (71.43%) ended without an order.',
      'Only 2 of 6 checkout visits (33.33%) became an order.',
      'Revenue fell from €200.00 to €100.00 (50% less) against the previous period.',
      'Brazil converts 0% of 20 visitors; the shop average is 6.67%.',
      '25 views led to 1 add-to-cart event.',
    ]);
    for (const w of wins) {
      expect(w.title && w.recommendation).toBeTruthy();
      expect(w.url).toMatch(new RegExp(`^${tk.url}/svc-admin/sales\\?range=custom&date_start=2025-04-01&date_end=2025-04-30#`));
    }
    expect(res.body.data.dateRange).toEqual({ date_start: '2025-04-01', date_end: '2025-04-30' });
    // The same findings once March and April up to yesterday are folded into the roll-ups.
    await tk.kernel.hooks.doAction('svc_every_hour');
    expect((await admin.get(`${tk.api}/data/ecommerce/quick-wins`, { query: { date_start: '2025-04-01', date_end: '2025-04-30' } })).body).toEqual(res.body);
  });
});
