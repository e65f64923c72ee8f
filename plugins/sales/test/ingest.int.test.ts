import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, count, rows, salesKernel, userClient, visit } from './support';

const NOW = '2025-03-10T12:00:00Z';

describe('ecommerce ingestion API', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let url: string;
  beforeAll(async () => {
    tk = await salesKernel({ clock: new ManualClock(NOW) });
    admin = await adminClient(tk);
    url = `${tk.api}/ecommerce/events`;
  });
  afterAll(() => tk.close());

  const order = (extra: Record<string, unknown> = {}) => ({
    type: 'order',
    order_id: 'A-1',
    uid: 'u-1',
    currency: 'EUR',
    total: 59.5,
    items: [{ product_id: 7, product_name: 'Mug', quantity: 2, price: 19.75 }, { product_id: 8, product_name: 'Tea', quantity: 1, price: 20 }],
    time: at('2025-03-10T10:00:00'),
    ...extra,
  });

  it('stores valid events, rejects bad ones one by one and links orders to the visitor session', async () => {
    const sessionId = await visit(tk, { uid: 'u-1', time: at('2025-03-10T09:50:00'), country: 'DE', parameters: 'utm_campaign=spring&utm_source=news' });
    const res = await admin.post(url, {
      json: {
        events: [
          { id: 'ev-1', type: 'product_view', uid: 'u-1', product_id: 7, url: 'https://shop.example/mug/?ref=x#top', time: at('2025-03-10T09:55:00') },
          { id: 'ev-2', type: 'add_to_cart', uid: 'u-1', product_id: 7, product_name: 'Mug', quantity: 2, price: '19.75', currency: 'eur', time: '2025-03-10T09:56:00Z' },
          { type: 'add_to_cart', uid: 'u-1', product_id: 7, product_name: 'Mug', quantity: 0, price: 19.75, currency: 'EUR', time: at('2025-03-10T09:56:00') },
          { type: 'checkout_visit', uid: 'u-1', url: 'https://shop.example/checkout', time: at('2025-03-10T09:58:00') },
          { id: 'ev-3', ...order() },
          { type: 'order', order_id: 'A-2', currency: 'XXY', total: 1, items: [], time: at('2025-03-10T10:00:00') },
          { type: 'return', time: at('2025-03-10T10:00:00') },
          'not an object',
          { type: 'subscription', subscription_id: 's-1', event: 'paused', product_id: 1, product_name: 'Box', amount: 9, currency: 'EUR', billing_period: 'month', billing_interval: 1, time: at('2025-03-10T10:00:00') },
          { type: 'product_view', uid: 'u-1', product_id: 7, url: 'ftp://shop.example/mug', time: at('2025-03-10T09:55:00') },
          { type: 'checkout_visit', uid: 'u-1', url: 'https://shop.example/checkout', time: at('2025-03-12T12:00:01') },
          { type: 'order', order_id: 'A-3', currency: 'EUR', total: 5, items: [{ product_id: 1, product_name: 'X', quantity: 1, price: -1 }], time: at('2025-03-10T10:00:00') },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(4);
    expect(res.body.duplicates).toBe(0);
    expect(res.body.rejected).toEqual([
      { index: 2, code: 'svc_invalid_field', message: 'quantity must be a whole number from 1 to 1000000.' },
      { index: 5, code: 'svc_invalid_field', message: 'currency must be an ISO 4217 currency code such as EUR.' },
      { index: 6, code: 'svc_invalid_event_type', message: expect.stringContaining('type must be one of') },
      { index: 7, code: 'svc_invalid_event', message: 'The event must be an object.' },
      { index: 8, code: 'svc_invalid_field', message: expect.stringContaining('event must be one of created') },
      { index: 9, code: 'svc_invalid_field', message: 'url must be an absolute http or https URL.' },
      { index: 10, code: 'svc_invalid_field', message: 'time must lie between 2000-01-01 and tomorrow.' },
      { index: 11, code: 'svc_invalid_field', message: 'items[0].price must be a number of at least 0.' },
    ]);

    const events = await rows(tk, 'ecommerce_events');
    expect(events.map((e) => [e.type, e.url, Number(e.session_id), e.currency])).toEqual([
      ['product_view', 'https://shop.example/mug', sessionId, ''],
      ['add_to_cart', '', sessionId, 'EUR'],
      ['checkout_visit', 'https://shop.example/checkout', sessionId, ''],
    ]);
    const [stored] = await rows(tk, 'ecommerce_orders');
    expect(stored).toMatchObject({ order_id: 'A-1', source: 'api', uid: 'u-1', currency: 'EUR' });
    expect(Number(stored!.session_id)).toBe(sessionId);
    expect(Number(stored!.total)).toBe(59.5);
    const [campaign] = await rows(tk, 'ecommerce_campaigns');
    expect(campaign).toMatchObject({ name: 'spring' });
    expect(Number(stored!.campaign_id)).toBe(Number(campaign!.ID));
    const items = await rows(tk, 'ecommerce_order_items');
    expect(items.map((i) => [Number(i.product_id), i.product_name, Number(i.quantity), Number(i.price), i.currency])).toEqual([
      [7, 'Mug', 2, 19.75, 'EUR'],
      [8, 'Tea', 1, 20, 'EUR'],
    ]);
  });

  it('ignores repeated event ids and repeated order ids, also within one call', async () => {
    const before = await count(tk, 'ecommerce_events');
    const res = await admin.post(url, {
      json: {
        events: [
          { id: 'ev-1', type: 'product_view', uid: 'u-1', product_id: 7, url: 'https://shop.example/mug', time: at('2025-03-10T09:55:00') },
          { id: 'ev-9', type: 'product_view', uid: 'u-2', product_id: 7, url: 'https://shop.example/mug', time: at('2025-03-10T09:55:00') },
          { id: 'ev-9', type: 'product_view', uid: 'u-2', product_id: 7, url: 'https://shop.example/mug', time: at('2025-03-10T09:55:00') },
          order({ total: 1 }),
          { id: 7, ...order({ order_id: 'A-4' }) },
        ],
      },
    });
    expect(res.body).toEqual({ accepted: 2, duplicates: 3, rejected: [] });
    expect(await count(tk, 'ecommerce_events')).toBe(before + 1);
    expect((await rows(tk, 'ecommerce_orders')).map((o) => o.order_id)).toEqual(['A-1', 'A-4']);
    const again = await admin.post(url, { json: { events: [{ id: 7, ...order({ order_id: 'A-5' }) }] } });
    expect(again.body).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
  });

  it('refuses bodies that are not { events: [...] } and more than 1,000 events, storing nothing', async () => {
    const before = await count(tk, 'ecommerce_events');
    for (const json of [{}, { events: 'x' }, [1, 2]]) {
      const res = await admin.post(url, { json });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'svc_invalid_events' });
    }
    const bad = await admin.post(url, { raw: '{"events": [', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_json');
    const view = { type: 'product_view', uid: 'u-3', product_id: 1, url: 'https://shop.example/p', time: at('2025-03-10T09:00:00') };
    const tooMany = await admin.post(url, { json: { events: Array.from({ length: 1001 }, () => view) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('svc_too_many_events');
    expect(await count(tk, 'ecommerce_events')).toBe(before);
    const huge = await admin.post(url, { raw: JSON.stringify({ events: [{ type: 'product_view', product_name: 'x'.repeat(11 * 1024 * 1024) }] }), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('svc_payload_too_large');
    const thousand = await admin.post(url, { json: { events: Array.from({ length: 1000 }, () => view) } });
    expect(thousand.body).toEqual({ accepted: 1000, duplicates: 0, rejected: [] });
  });

  it('needs manage_svc_statistics', async () => {
    expect((await tk.client().post(url, { json: { events: [] } })).status).toBe(401);
    const editor = await userClient(tk, 'ed', 'editor');
    const res = await editor.post(url, { json: { events: [] } });
    expect(res.status).toBe(403);
  });
});
