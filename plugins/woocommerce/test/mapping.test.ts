import { gmt, orderEvent, renewalOf, subscriptionEvents } from '../mapping';
import type { WcSubscription } from '../types';

const sub = (extra: Partial<WcSubscription> = {}): WcSubscription => ({
  id: 9,
  status: 'active',
  currency: 'EUR',
  total: '10.00',
  billing_period: 'month',
  billing_interval: '1',
  start_date_gmt: '2025-01-01T00:00:00',
  trial_end_date_gmt: '2025-01-15T00:00:00',
  line_items: [{ product_id: 3, name: 'Box', quantity: 1, total: '10.00' }],
  ...extra,
});
const NOW = Date.UTC(2025, 2, 1) / 1000;

describe('WooCommerce mapping', () => {
  it('reads GMT dates without a zone as UTC', () => {
    expect(gmt('2025-01-01T00:00:00')).toBe(Date.UTC(2025, 0, 1) / 1000);
    expect(gmt('2025-01-01T01:00:00+01:00')).toBe(Date.UTC(2025, 0, 1) / 1000);
    expect(gmt(null)).toBeNull();
    expect(gmt('soon')).toBeNull();
  });

  it('does not convert a trial canceled before it ended, and ignores pending subscriptions', () => {
    const canceled = subscriptionEvents(sub({ status: 'cancelled', cancelled_date_gmt: '2025-01-10T00:00:00' }), NOW);
    expect(canceled.map((e) => e.event)).toEqual(['trial_started', 'canceled']);
    expect(subscriptionEvents(sub({ status: 'pending' }), NOW)).toEqual([]);
    expect(subscriptionEvents(sub({ trial_end_date_gmt: '2025-04-01T00:00:00' }), NOW).map((e) => e.event)).toEqual(['trial_started']);
  });

  it('maps only paid orders and finds the subscription a renewal order renews', () => {
    const order = { id: 5, status: 'on-hold', currency: 'EUR', total: '1', date_created_gmt: '2025-01-01T00:00:00', line_items: [], meta_data: [{ key: '_subscription_renewal', value: 9 }] };
    expect(orderEvent(order)).toBeNull();
    expect(orderEvent({ ...order, status: 'completed' })).toMatchObject({ order_id: '5', uid: '', time: Date.UTC(2025, 0, 1) / 1000 });
    expect(renewalOf(order)).toBe(9);
    expect(renewalOf({ ...order, meta_data: [] })).toBeNull();
  });
});
