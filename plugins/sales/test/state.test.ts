import { monthly } from '../subscriptions/mrr';
import { type StoredSubscriptionEvent, replay } from '../subscriptions/state';

const plan = { amount: 30, currency: 'EUR', product_id: 1, product_name: 'Box', billing_period: 'month' as const, billing_interval: 1, gateway: '', country_code: '' };
const e = (event: StoredSubscriptionEvent['event'], time: number, extra: Partial<StoredSubscriptionEvent> = {}): StoredSubscriptionEvent => ({ ...plan, event, time, ...extra });

describe('subscription replay', () => {
  it('normalises plan amounts to a month', () => {
    expect(monthly(120, 'year', 1)).toBe(10);
    expect(monthly(30, 'month', 3)).toBe(10);
    expect(monthly(12, 'week', 1)).toBe(52);
    expect(monthly(1, 'day', 1)).toBeCloseTo(30.4167, 4);
  });

  it('turns events into state periods, splitting active time when the price changes', () => {
    const r = replay([e('trial_started', 100), e('converted', 200), e('renewed', 300, { amount: 60 }), e('canceled', 400, { amount: 60 }), e('reactivated', 500, { amount: 0 })]);
    expect(r.periods).toEqual([
      { state: 'trial', start: 100, end: 200, mrr: 0, currency: 'EUR', product_id: 1 },
      { state: 'active', start: 200, end: 300, mrr: 30, currency: 'EUR', product_id: 1 },
      { state: 'active', start: 300, end: 400, mrr: 60, currency: 'EUR', product_id: 1 },
      { state: 'canceled', start: 400, end: 500, mrr: 0, currency: 'EUR', product_id: 1 },
      { state: 'active', start: 500, end: null, mrr: 60, currency: 'EUR', product_id: 1 },
    ]);
    expect(r).toMatchObject({ status: 'active', startedAt: 100, firstPaidAt: 200, mrr: 60 });
  });

  it('keeps one period for renewals at the same price, and drops periods of no length', () => {
    const r = replay([e('created', 100), e('renewed', 200), e('canceled', 300), e('expired', 300)]);
    expect(r.periods.map((p) => [p.state, p.start, p.end])).toEqual([
      ['active', 100, 300],
      ['expired', 300, null],
    ]);
    expect(r.status).toBe('expired');
  });

  it('takes the latest gateway and country that were given', () => {
    const r = replay([e('created', 100, { gateway: 'stripe', country_code: 'DE' }), e('canceled', 200)]);
    expect(r.latest).toMatchObject({ event: 'canceled', gateway: 'stripe', country_code: 'DE' });
  });
});
