import { createHmac } from 'node:crypto';
import { ManualClock } from '../../../core';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { at, count, rows, salesKernel, visit } from '../../sales/test/support';
import { type FakeStore, startStore } from './store';

const SECRET = 'wc-webhook-secret';
const KEY = 'ck_test';
const CONSUMER_SECRET = 'cs_test';

describe('WooCommerce webhooks', () => {
  let tk: TestKernel;
  let store: FakeStore;
  let url: string;
  const clock = new ManualClock('2025-03-31T12:00:00Z');
  const deliver = (topic: string, payload: unknown, secret = SECRET, signature?: string) => {
    const body = JSON.stringify(payload);
    return tk.client().post(url, {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': topic,
        'x-wc-webhook-signature': signature ?? createHmac('sha256', secret).update(body).digest('base64'),
      },
    });
  };
  const subscription = {
    id: 501,
    parent_id: 900,
    status: 'active',
    currency: 'EUR',
    total: '20.00',
    billing_period: 'month',
    billing_interval: '1',
    start_date_gmt: '2025-02-01T10:00:00',
    trial_end_date_gmt: '2025-02-15T10:00:00',
    cancelled_date_gmt: null,
    end_date_gmt: null,
    payment_method: 'stripe',
    billing: { country: 'DE' },
    line_items: [{ product_id: 77, name: 'Coffee club', quantity: 1, total: '20.00' }],
  };
  const order = (id: number, extra: Record<string, unknown> = {}) => ({
    id,
    status: 'processing',
    currency: 'EUR',
    total: '42.50',
    date_created_gmt: '2025-03-30T09:00:00',
    date_paid_gmt: '2025-03-30T09:05:00',
    line_items: [{ product_id: 5, name: 'Grinder', quantity: 1, price: 40, total: '40.00' }],
    meta_data: [{ key: '_svc_uid', value: 'visitor-9' }],
    ...extra,
  });

  beforeAll(async () => {
    store = await startStore(KEY, CONSUMER_SECRET);
    store.subscriptions.push(subscription);
    tk = await salesKernel({ clock, plugins: ['sales', 'woocommerce'] });
    url = `${tk.api}/ecommerce/webhooks/woocommerce`;
  });
  afterAll(async () => {
    await tk.close();
    await store.close();
  });

  it('answers 503 while no webhook secret is set, and accepts the ping WooCommerce sends when a webhook is created', async () => {
    const unconfigured = await deliver('order.created', order(1));
    expect(unconfigured.status).toBe(503);
    expect(unconfigured.body.code).toBe('svc_webhook_not_configured');
    const ping = await tk.client().post(url, { raw: 'webhook_id=12', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(ping.status).toBe(200);
    await tk.kernel.options.set('svc_woocommerce_webhook_secret', SECRET);
    await tk.kernel.options.set('svc_woocommerce_store_url', store.url);
    await tk.kernel.options.set('svc_woocommerce_consumer_key', KEY);
    await tk.kernel.options.set('svc_woocommerce_consumer_secret', CONSUMER_SECRET);
  });

  it('refuses forged, missing and wrongly keyed signatures with 400 and stores nothing', async () => {
    const forged = await deliver('order.created', order(2), SECRET, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ success: false, code: 'svc_invalid_signature', message: 'The webhook signature does not match.' });
    expect((await deliver('order.created', order(2), 'other-secret')).status).toBe(400);
    const unsigned = await tk.client().post(url, { json: order(2), headers: { 'x-wc-webhook-topic': 'order.created' } });
    expect(unsigned.status).toBe(400);
    const body = JSON.stringify(order(2));
    const tampered = await tk.client().post(url, {
      raw: body.replace('42.50', '4250.00'),
      headers: { 'content-type': 'application/json', 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': createHmac('sha256', SECRET).update(body).digest('base64') },
    });
    expect(tampered.status).toBe(400);
    expect(await count(tk, 'ecommerce_orders')).toBe(0);
    expect(await count(tk, 'ecommerce_received')).toBe(0);
  });

  it('stores a paid order once, linked to the visitor through _svc_uid; unpaid orders and other topics store nothing', async () => {
    const sessionId = await visit(tk, { uid: 'visitor-9', time: at('2025-03-30T08:50:00'), country: 'AT' });
    expect((await deliver('order.created', order(3, { status: 'pending', date_paid_gmt: null }))).body).toEqual({ success: true, accepted: 0, duplicates: 0, rejected: [] });
    expect((await deliver('order.updated', order(3))).body).toEqual({ success: true, accepted: 1, duplicates: 0, rejected: [] });
    expect((await deliver('order.updated', order(3, { status: 'completed' }))).body).toEqual({ success: true, accepted: 0, duplicates: 1, rejected: [] });
    expect((await deliver('product.updated', { id: 5, name: 'Grinder' })).body.accepted).toBe(0);
    const [stored] = await rows(tk, 'ecommerce_orders');
    expect(stored).toMatchObject({ order_id: '3', source: 'woocommerce', uid: 'visitor-9', currency: 'EUR', time: at('2025-03-30T09:05:00') });
    expect(Number(stored!.session_id)).toBe(sessionId);
    expect(Number(stored!.total)).toBe(42.5);
    const bad = await tk.client().post(url, {
      raw: 'not json',
      headers: { 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': createHmac('sha256', SECRET).update('not json').digest('base64') },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_json');
  });

  it('turns subscriptions into lifecycle events and renewal orders into renewals', async () => {
    expect((await deliver('subscription.created', subscription)).body.accepted).toBe(2);
    expect((await deliver('subscription.updated', subscription)).body).toMatchObject({ accepted: 0, duplicates: 2 });
    const renewal = order(950, { total: '20.00', line_items: [{ product_id: 77, name: 'Coffee club', quantity: 1, price: 20, total: '20.00' }], meta_data: [{ key: '_subscription_renewal', value: '501' }] });
    expect((await deliver('order.created', renewal)).body.accepted).toBe(2);
    expect(store.requests).toContain('/wp-json/wc/v3/subscriptions/501');
    const orphan = order(951, { meta_data: [{ key: '_subscription_renewal', value: '999' }] });
    const unreachable = await deliver('order.created', orphan);
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toMatchObject({ code: 'svc_store_unreachable', message: expect.stringContaining('WooCommerce answered 404') });
    expect((await rows(tk, 'ecommerce_orders')).map((o) => o.order_id)).not.toContain('951');
    const canceled = { ...subscription, status: 'pending-cancel', cancelled_date_gmt: '2025-03-31T08:00:00' };
    expect((await deliver('subscription.updated', canceled)).body).toMatchObject({ accepted: 1, duplicates: 2 });
    const events = await rows(tk, 'subscription_events', 'time');
    expect(events.map((e) => [e.event, Number(e.amount), Number(e.time)])).toEqual([
      ['trial_started', 20, at('2025-02-01T10:00:00')],
      ['converted', 20, at('2025-02-15T10:00:00')],
      ['renewed', 20, at('2025-03-30T09:05:00')],
      ['canceled', 20, at('2025-03-31T08:00:00')],
    ]);
    const [sub] = await rows(tk, 'subscriptions');
    expect(sub).toMatchObject({ source: 'woocommerce', subscription_id: '501', status: 'canceled', gateway: 'stripe', country_code: 'DE', product_name: 'Coffee club' });
  });

  it('detects a reactivation from the subscription webhooks: active again after its cancellation, once', async () => {
    const reactivated = { ...subscription, status: 'active', cancelled_date_gmt: null, date_modified_gmt: '2025-03-31T11:00:00' };
    // A late delivery of a payload from before the cancellation changes nothing.
    expect((await deliver('subscription.updated', { ...reactivated, date_modified_gmt: '2025-03-30T07:00:00' })).body).toMatchObject({ accepted: 0 });
    expect((await deliver('subscription.updated', reactivated)).body).toMatchObject({ accepted: 1, duplicates: 2 });
    expect((await deliver('subscription.updated', reactivated)).body).toMatchObject({ accepted: 0, duplicates: 2 });
    expect((await rows(tk, 'subscription_events', 'time')).map((e) => [e.event, Number(e.time)]).slice(-2)).toEqual([
      ['canceled', at('2025-03-31T08:00:00')],
      ['reactivated', at('2025-03-31T11:00:00')],
    ]);
    const [sub] = await rows(tk, 'subscriptions');
    expect(sub).toMatchObject({ subscription_id: '501', status: 'active' });
  });

  it('takes the refunds of an order webhook from the store, once each, full or partial', async () => {
    store.refunds.set(3, [{ id: 71, date_created_gmt: '2025-03-31T09:00:00', amount: '10.00', reason: 'scratch', line_items: [] }]);
    const partial = await deliver('order.updated', order(3, { refunds: [{ id: 71, reason: 'scratch', total: '-10.00' }] }));
    expect(partial.body).toEqual({ success: true, accepted: 1, duplicates: 1, rejected: [] });
    expect(store.requests).toContain('/wp-json/wc/v3/orders/3/refunds?per_page=100');
    store.refunds.set(3, [
      { id: 72, date_created_gmt: '2025-03-31T10:00:00', amount: '32.50', reason: '', line_items: [{ product_id: 5, name: 'Grinder', quantity: -1, total: '-30.00' }] },
      { id: 71, date_created_gmt: '2025-03-31T09:00:00', amount: '10.00', reason: 'scratch', line_items: [] },
    ]);
    const full = await deliver('order.updated', order(3, { status: 'refunded', refunds: [{ id: 72, total: '-32.50' }, { id: 71, total: '-10.00' }] }));
    expect(full.body).toEqual({ success: true, accepted: 1, duplicates: 2, rejected: [] });
    expect((await rows(tk, 'ecommerce_refunds')).map((r) => [r.refund_id, r.source, Number(r.amount), Number(r.time)])).toEqual([
      ['71', 'woocommerce', 10, at('2025-03-31T09:00:00')],
      ['72', 'woocommerce', 32.5, at('2025-03-31T10:00:00')],
    ]);
    expect((await rows(tk, 'ecommerce_refund_items')).map((i) => [Number(i.product_id), Number(i.quantity), Number(i.amount)])).toEqual([
      [5, 0, 10],
      [5, 1, 30],
    ]);
    // A refunded order the receiver never saw is stored with its refund.
    store.refunds.set(8, [{ id: 81, date_created_gmt: '2025-03-31T10:30:00', amount: '42.50', line_items: [] }]);
    const unseen = await deliver('order.updated', order(8, { status: 'refunded', refunds: [{ id: 81, total: '-42.50' }] }));
    expect(unseen.body).toEqual({ success: true, accepted: 2, duplicates: 0, rejected: [] });
  });

  it('counts as an active subscription integration once configured, reporting the store earliest subscription', async () => {
    const progress = await tk.signedIn().then(async (c) => c.get(`${tk.api}/get_action/ecommerce/get_subscriptions_backfill_progress`, { headers: { 'x-svc-nonce': await tk.nonce(c) } }));
    expect(progress.status).toBe(200);
    expect(await tk.kernel.options.get('svc_sales_integration_woocommerce')).toEqual({ activated_at: clock.unix(), earliest: at(`${subscription.start_date_gmt}`) });
  });

  it('keeps the secrets out of the settings page, and saving the mask back keeps them', async () => {
    const admin = await tk.signedIn();
    const page = await admin.get('/svc-admin/settings');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(SECRET);
    expect(page.text).not.toContain(CONSUMER_SECRET);
    expect(page.text).toContain(store.url);
    expect(page.text).toMatch(/name="svc_woocommerce_webhook_secret" type="password" autocomplete="off" value="••••••••"/);
    expect((await tk.kernel.settings.values()).svc_woocommerce_consumer_key).toBe('••••••••');
    expect(await tk.kernel.settings.save({ svc_woocommerce_webhook_secret: '••••••••', svc_woocommerce_consumer_secret: '••••••••' })).toEqual({ saved: true, errors: {} });
    expect(await tk.kernel.settings.get('svc_woocommerce_webhook_secret')).toBe(SECRET);
    expect(await tk.kernel.settings.get('svc_woocommerce_consumer_secret')).toBe(CONSUMER_SECRET);
  });
});
