import { createHmac } from 'node:crypto';
import { ManualClock } from '../../../core';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { at, rows, salesKernel } from '../../sales/test/support';
import { type FakeStripe, startStripe } from './api';

const SECRET = 'whsec_test_secret';
const KEY = 'rk_test_key';
const T0 = at('2025-02-01T10:00:00');

describe('Stripe deliveries for a site', () => {
  let tk: TestKernel;
  let stripe: FakeStripe;
  const clock = new ManualClock('2025-02-01T10:00:05Z');
  const subscription = (id: string) => ({
    id,
    object: 'subscription',
    status: 'active',
    currency: 'eur',
    created: T0,
    start_date: T0,
    trial_start: null,
    trial_end: null,
    canceled_at: null,
    ended_at: null,
    cancel_at_period_end: false,
    items: {
      object: 'list',
      data: [{ id: `si_${id}`, quantity: 1, price: { id: 'price_1', object: 'price', product: { id: 'prod_1', object: 'product', name: 'Plan', metadata: {} }, unit_amount: 900, currency: 'eur', nickname: null, recurring: { interval: 'month', interval_count: 1 }, metadata: {} } }],
    },
  });
  const deliver = (eventId: string, object: unknown, query: Record<string, unknown> = {}) => {
    const payload = JSON.stringify({ id: eventId, object: 'event', type: 'customer.subscription.created', created: clock.unix(), data: { object } });
    const signature = `t=${clock.unix()},v1=${createHmac('sha256', SECRET).update(`${clock.unix()}.${payload}`).digest('hex')}`;
    return tk.client().post(`${tk.api}/ecommerce/webhooks/stripe`, { query, raw: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
  };

  beforeAll(async () => {
    stripe = await startStripe(KEY);
    stripe.subscriptions.push(subscription('sub_1'), subscription('sub_2'));
    tk = await salesKernel({ clock, plugins: ['sales', 'stripe'] });
    await tk.kernel.settings.save({ svc_stripe_webhook_secret: SECRET, svc_stripe_api_key: KEY, svc_stripe_api_base: stripe.url });
  });
  afterAll(async () => {
    await tk?.close();
    await stripe?.close();
  });

  it('stores the events of a delivery on the site its URL names, the default site without one', async () => {
    const shop = await tk.kernel.sites.add({ name: 'Second Shop', domain: 'shop.example', timezone: 'UTC' });
    expect((await deliver('evt_1', subscription('sub_1'), { site: shop.id })).body).toMatchObject({ success: true, accepted: 1 });
    expect((await deliver('evt_2', subscription('sub_2'))).body).toMatchObject({ success: true, accepted: 1 });
    // A delivery sent again to another site is still the same event.
    expect((await deliver('evt_1', subscription('sub_1'))).body).toMatchObject({ accepted: 0, duplicates: 1 });
    expect((await rows(tk, 'subscriptions')).map((r) => [r.subscription_id, Number(r.site_id)])).toEqual([
      ['sub_1', shop.id],
      ['sub_2', 1],
    ]);
    const unknown = await deliver('evt_3', subscription('sub_3'), { site: 'nowhere.example' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('svc_unknown_site');
  });
});
