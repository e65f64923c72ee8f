import { createHmac } from 'node:crypto';
import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, count, rows, salesKernel, visit } from '../../sales/test/support';
import { type FakeStripe, startStripe } from './api';

const SECRET = 'whsec_test_secret';
const KEY = 'rk_test_key';
const DAY = 86_400;
const T0 = at('2025-02-01T10:00:00');

describe('Stripe integration', () => {
  let tk: TestKernel;
  let stripe: FakeStripe;
  let admin: HttpClient;
  let url: string;
  let events = 0;
  const clock = new ManualClock('2025-02-01T10:00:05Z');
  const header = (payload: string, secret = SECRET, ts = clock.unix()) => `t=${ts},v1=${createHmac('sha256', secret).update(`${ts}.${payload}`).digest('hex')}`;
  const deliver = (type: string, object: unknown, extra: Record<string, unknown> = {}, sign = header) => {
    const payload = JSON.stringify({ id: `evt_${++events}`, object: 'event', type, created: clock.unix(), data: { object, ...extra } });
    return tk.client().post(url, { raw: payload, headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) } });
  };
  const price = (amount: number, product: Record<string, unknown>, interval: string | null = 'month') => ({
    id: `price_${amount}`,
    object: 'price',
    product,
    unit_amount: amount,
    currency: 'eur',
    nickname: null,
    recurring: interval ? { interval, interval_count: 1 } : null,
    metadata: {},
  });
  const team = { id: 'prod_team', object: 'product', name: 'Team plan', metadata: { svc_product_id: '42' } };
  const subscription: Record<string, any> = {
    id: 'sub_1',
    object: 'subscription',
    status: 'trialing',
    currency: 'eur',
    created: T0,
    start_date: T0,
    trial_start: T0,
    trial_end: T0 + 14 * DAY,
    canceled_at: null,
    ended_at: null,
    cancel_at_period_end: false,
    items: { object: 'list', data: [{ id: 'si_1', price: price(1500, team), quantity: 2 }] },
  };

  beforeAll(async () => {
    stripe = await startStripe(KEY);
    stripe.subscriptions.push(subscription);
    tk = await salesKernel({ clock, plugins: ['sales', 'stripe'] });
    admin = await adminClient(tk);
    url = `${tk.api}/ecommerce/webhooks/stripe`;
  });
  afterAll(async () => {
    await tk.close();
    await stripe.close();
  });

  it('answers 503 until the signing secret and API key are set', async () => {
    const res = await deliver('customer.subscription.created', subscription);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('svc_webhook_not_configured');
    expect(await tk.kernel.settings.save({ svc_stripe_webhook_secret: SECRET, svc_stripe_api_key: KEY, svc_stripe_api_base: stripe.url })).toMatchObject({ saved: true });
  });

  it('refuses forged, stale, wrongly keyed and tampered signatures with 400, storing nothing', async () => {
    const forged = await deliver('customer.subscription.created', subscription, {}, () => 't=1,v1=deadbeef');
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ success: false, code: 'svc_invalid_signature', message: 'The Stripe-Signature does not match this payload.' });
    expect((await deliver('customer.subscription.created', subscription, {}, (p) => header(p, SECRET, clock.unix() - 600))).status).toBe(400);
    expect((await deliver('customer.subscription.created', subscription, {}, (p) => header(p, 'whsec_other'))).status).toBe(400);
    expect((await deliver('customer.subscription.created', subscription, {}, (p) => header(p.replace('sub_1', 'sub_2')))).status).toBe(400);
    const unsigned = await tk.client().post(url, { json: { id: 'evt_x', type: 'invoice.paid', data: { object: {} } } });
    expect(unsigned.status).toBe(400);
    expect(await count(tk, 'subscription_events')).toBe(0);
    expect(await count(tk, 'ecommerce_received')).toBe(0);
  });

  it('follows a subscription from trial to conversion, renewal, cancellation, reactivation and end', async () => {
    expect((await deliver('customer.subscription.created', subscription)).body).toEqual({ success: true, accepted: 1, duplicates: 0, rejected: [] });
    clock.set((T0 + 15 * DAY) * 1000);
    subscription.status = 'active';
    expect((await deliver('customer.subscription.updated', subscription, { previous_attributes: { status: 'trialing' } })).body).toMatchObject({ accepted: 1, duplicates: 1 });
    const invoice = (id: string, reason: string, paidAt: number) => ({
      id,
      object: 'invoice',
      status: 'paid',
      billing_reason: reason,
      amount_paid: 3000,
      currency: 'eur',
      created: paidAt,
      status_transitions: { paid_at: paidAt },
      parent: { subscription_details: { subscription: 'sub_1' } },
    });
    expect((await deliver('invoice.paid', invoice('in_1', 'subscription_create', T0))).body.accepted).toBe(0);
    clock.set((T0 + 45 * DAY) * 1000);
    expect((await deliver('invoice.paid', invoice('in_2', 'subscription_cycle', T0 + 44 * DAY))).body.accepted).toBe(1);
    Object.assign(subscription, { cancel_at_period_end: true, canceled_at: T0 + 45 * DAY });
    expect((await deliver('customer.subscription.updated', subscription, { previous_attributes: { cancel_at_period_end: false } })).body.accepted).toBe(1);
    clock.advance(DAY);
    subscription.cancel_at_period_end = false;
    expect((await deliver('customer.subscription.updated', subscription, { previous_attributes: { cancel_at_period_end: true } })).body.accepted).toBe(1);
    clock.advance(DAY);
    Object.assign(subscription, { status: 'canceled', canceled_at: clock.unix(), ended_at: clock.unix() });
    expect((await deliver('customer.subscription.deleted', subscription)).body.accepted).toBe(2);

    const missing = await deliver('customer.subscription.updated', { ...subscription, id: 'sub_gone' });
    expect(missing.status).toBe(503);
    expect(missing.body.code).toBe('svc_store_unreachable');
    const stored = await rows(tk, 'subscription_events', 'time, ID');
    expect(stored.map((e) => [e.event, Number(e.amount), e.currency, Number(e.product_id), e.product_name, e.billing_period])).toEqual([
      ['trial_started', 30, 'EUR', 42, 'Team plan', 'month'],
      ['converted', 30, 'EUR', 42, 'Team plan', 'month'],
      ['renewed', 30, 'EUR', 42, 'Team plan', 'month'],
      ['canceled', 30, 'EUR', 42, 'Team plan', 'month'],
      ['reactivated', 30, 'EUR', 42, 'Team plan', 'month'],
      ['canceled', 30, 'EUR', 42, 'Team plan', 'month'],
      ['expired', 30, 'EUR', 42, 'Team plan', 'month'],
    ]);
    expect((await rows(tk, 'subscriptions'))[0]).toMatchObject({ source: 'stripe', subscription_id: 'sub_1', status: 'expired', gateway: 'stripe' });
    expect(stripe.requests.filter((r) => r === 'GET /v1/subscriptions/sub_1').length).toBeGreaterThanOrEqual(5);
  });

  it('records paid one-off Checkout Sessions as orders with their line items, once', async () => {
    await visit(tk, { uid: 'visitor-3', time: clock.unix() - 600, country: 'NL' });
    const poster = { id: 'prod_poster', object: 'product', name: 'Poster', metadata: {} };
    stripe.lineItems.set('cs_1', [
      { id: 'li_1', object: 'item', description: 'Poster', quantity: 3, amount_total: 4500, price: price(1500, poster, null) },
      { id: 'li_2', object: 'item', description: 'Frame', quantity: 1, amount_total: 1000, price: price(1000, { id: 'prod_frame', object: 'product', name: 'Frame', metadata: { svc_product_id: '7' } }, null) },
    ]);
    const session = { id: 'cs_1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 5500, currency: 'eur', client_reference_id: 'visitor-3', metadata: {} };
    expect((await deliver('checkout.session.completed', { ...session, payment_status: 'unpaid' })).body.accepted).toBe(0);
    expect((await deliver('checkout.session.completed', { ...session, mode: 'subscription' })).body.accepted).toBe(0);
    expect((await deliver('checkout.session.completed', session)).body.accepted).toBe(1);
    expect((await deliver('checkout.session.completed', session)).body).toMatchObject({ accepted: 0, duplicates: 1 });
    const [order] = await rows(tk, 'ecommerce_orders');
    expect(order).toMatchObject({ order_id: 'cs_1', source: 'stripe', uid: 'visitor-3', currency: 'EUR' });
    expect(Number(order!.total)).toBe(55);
    expect(Number(order!.session_id)).toBeGreaterThan(0);
    const items = await rows(tk, 'ecommerce_order_items');
    expect(items.map((i) => [i.product_name, Number(i.quantity), Number(i.price)])).toEqual([
      ['Poster', 3, 15],
      ['Frame', 1, 10],
    ]);
    expect(Number(items[0]!.product_id)).toBeGreaterThan(0);
    expect(Number(items[1]!.product_id)).toBe(7);
  });

  it('takes the succeeded refunds of Checkout payments from refund.* and charge.refunded events, once each', async () => {
    stripe.sessions.push({ id: 'cs_1', object: 'checkout.session', payment_intent: 'pi_1' });
    const refund = (id: string, amount: number, status: string, extra: Record<string, unknown> = {}) => ({
      id, object: 'refund', amount, currency: 'eur', status, created: clock.unix(), charge: 'ch_1', payment_intent: 'pi_1', ...extra,
    });
    expect((await deliver('refund.created', refund('re_1', 1000, 'pending'))).body.accepted).toBe(0);
    expect((await deliver('refund.updated', refund('re_1', 1000, 'succeeded'))).body).toEqual({ success: true, accepted: 1, duplicates: 0, rejected: [] });
    // A refund of a payment that was no Checkout Session (an invoice) is no order's.
    expect((await deliver('refund.created', refund('re_9', 500, 'succeeded', { payment_intent: 'pi_invoice' }))).body.accepted).toBe(0);
    stripe.refunds.push(refund('re_1', 1000, 'succeeded'), refund('re_2', 4500, 'succeeded'), refund('re_3', 100, 'failed'));
    const charge = await deliver('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_1', amount_refunded: 5500 });
    expect(charge.body).toEqual({ success: true, accepted: 1, duplicates: 1, rejected: [] });
    expect((await rows(tk, 'ecommerce_refunds')).map((r) => [r.refund_id, r.source, Number(r.amount), r.currency])).toEqual([
      ['re_1', 'stripe', 10, 'EUR'],
      ['re_2', 'stripe', 45, 'EUR'],
    ]);
    // The second refund gave back the rest of the order: every unit left.
    const items = await rows(tk, 'ecommerce_refund_items');
    expect(items.map((i) => [i.product_name, Number(i.quantity)]).slice(-2).sort()).toEqual([
      ['Frame', 1],
      ['Poster', 3],
    ]);
  });

  it('takes back a stored refund that fails after it succeeded, once', async () => {
    const failed = { id: 're_1', object: 'refund', amount: 1000, currency: 'eur', status: 'failed', created: clock.unix(), charge: 'ch_1', payment_intent: 'pi_1' };
    expect((await deliver('refund.failed', failed)).body).toEqual({ success: true, accepted: 0, duplicates: 0, rejected: [], withdrawn: 1 });
    const kept = await rows(tk, 'ecommerce_refunds');
    expect(kept.map((r) => r.refund_id)).toEqual(['re_2']);
    // Its products went with it.
    expect((await rows(tk, 'ecommerce_refund_items')).map((i) => Number(i.refund_ref)).filter((ref) => ref !== Number(kept[0]!.ID))).toEqual([]);
    // Told again, or told late that it had succeeded, nothing changes.
    expect((await deliver('refund.updated', failed)).body).toEqual({ success: true, accepted: 0, duplicates: 0, rejected: [] });
    expect((await deliver('refund.updated', { ...failed, status: 'succeeded' })).body).toEqual({ success: true, accepted: 0, duplicates: 1, rejected: [] });
    expect((await rows(tk, 'ecommerce_refunds')).map((r) => r.refund_id)).toEqual(['re_2']);
  });

  it('backfills the account history once activated: subscriptions and their paid renewal invoices', async () => {
    const solo = { id: 'prod_solo', object: 'product', name: 'Solo', metadata: { svc_product_id: '43' } };
    stripe.subscriptions.push({
      ...subscription,
      id: 'sub_old',
      status: 'active',
      created: T0 - 60 * DAY,
      start_date: T0 - 60 * DAY,
      trial_start: null,
      trial_end: null,
      canceled_at: null,
      ended_at: null,
      cancel_at_period_end: false,
      items: { object: 'list', data: [{ id: 'si_2', price: price(900, solo), quantity: 1 }] },
    });
    stripe.invoices.push({ id: 'in_old', status: 'paid', billing_reason: 'subscription_cycle', amount_paid: 900, currency: 'eur', created: T0 - 30 * DAY, subscription: 'sub_old' });
    // The first accepted subscription webhook activated the integration and scheduled its backfill.
    expect(await tk.kernel.options.get('svc_sales_integration_stripe')).toMatchObject({ earliest: T0 });
    const progress = await admin.get(`${tk.api}/get_action/ecommerce/get_subscriptions_backfill_progress`);
    expect(progress.body).toMatchObject({ is_processing: true, processed: 0 });
    while ((await tk.kernel.scheduler.pending('svc_sales_backfill_batch')).length > 0) await tk.kernel.scheduler.runDue();
    const old = (await rows(tk, 'subscription_events', 'time, ID')).filter((e) => Number(e.product_id) === 43);
    expect(old.map((e) => [e.event, Number(e.amount)])).toEqual([
      ['created', 9],
      ['renewed', 9],
    ]);
    const chart = await admin.get(`${tk.api}/data/ecommerce/subscriptions-revenue-chart`, { query: { date_start: '2024-12-01', date_end: '2025-03-31', group_by: 'month' } });
    expect(chart.body.data.rows.map((r: any) => [r.label, r.newValue, r.renewalValue])).toEqual([
      ['Dec 2024', 9, 0],
      ['Jan 2025', 0, 9],
      ['Feb 2025', 30, 0],
      ['Mar 2025', 0, 30],
    ]);
  });
});
