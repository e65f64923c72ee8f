import { major, productId, subscriptionEvents } from '../mapping';
import type { StripePrice, StripeSubscription } from '../types';

const price = (product: StripePrice['product'], metadata: Record<string, string> = {}): StripePrice => ({ id: 'price_1', product, unit_amount: 500, currency: 'jpy', recurring: { interval: 'month', interval_count: 1 }, metadata });

describe('Stripe mapping', () => {
  it('converts minor units by the currency: cents, and yen as they are', () => {
    expect(major(1999, 'eur')).toBe(19.99);
    expect(major(500, 'JPY')).toBe(500);
  });

  it('gives products whole-number ids: declared in metadata, else a stable hash', () => {
    expect(productId(price({ id: 'prod_a', metadata: { svc_product_id: '12' } }))).toBe(12);
    expect(productId(price('prod_a', { svc_product_id: '13' }))).toBe(13);
    const hashed = productId(price('prod_a'));
    expect(hashed).toBe(productId(price({ id: 'prod_a' })));
    expect(hashed).not.toBe(productId(price('prod_b')));
    expect(Number.isSafeInteger(hashed) && hashed > 0 && hashed < 2 ** 31).toBe(true);
  });

  it('emits nothing for incomplete subscriptions and a plain start otherwise', () => {
    const s: StripeSubscription = {
      id: 'sub_1',
      status: 'incomplete',
      currency: 'jpy',
      start_date: 100,
      trial_start: null,
      trial_end: null,
      canceled_at: null,
      ended_at: null,
      cancel_at_period_end: false,
      items: { data: [{ price: price('prod_a'), quantity: 2 }] },
    };
    expect(subscriptionEvents(s, 1000)).toEqual([]);
    expect(subscriptionEvents({ ...s, status: 'active' }, 1000)).toEqual([
      expect.objectContaining({ id: 'sub-sub_1-start', event: 'created', amount: 1000, currency: 'JPY', billing_period: 'month', time: 100 }),
    ]);
  });
});
