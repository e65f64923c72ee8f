import type { BillingPeriod, SubscriptionEventName } from '../contract';
import { monthly } from './mrr';

export type SubscriptionState = 'trial' | 'active' | 'canceled' | 'expired';

/** A subscription event as stored. */
export interface StoredSubscriptionEvent {
  event: SubscriptionEventName;
  time: number;
  amount: number;
  currency: string;
  product_id: number;
  product_name: string;
  billing_period: BillingPeriod;
  billing_interval: number;
  gateway: string;
  country_code: string;
}

/** A stretch of time in one state; `end` null while it lasts. Active periods carry their MRR. */
export interface Period {
  state: SubscriptionState;
  start: number;
  end: number | null;
  mrr: number;
  currency: string;
  product_id: number;
}

export interface Replayed {
  status: SubscriptionState;
  periods: Period[];
  startedAt: number;
  /** First payment (created, converted or renewed), or null. */
  firstPaidAt: number | null;
  /** The latest event's plan details (gateway and country: the latest ones given) and the current MRR. */
  latest: StoredSubscriptionEvent;
  mrr: number;
}

const TARGET: Readonly<Record<SubscriptionEventName, SubscriptionState>> = {
  created: 'active',
  converted: 'active',
  renewed: 'active',
  reactivated: 'active',
  trial_started: 'trial',
  canceled: 'canceled',
  expired: 'expired',
};

/** Events that are payments: their amount is subscription revenue. */
export const PAYMENT_EVENTS: readonly SubscriptionEventName[] = ['created', 'converted', 'renewed'];

/**
 * Replays a subscription's events in time order into its state periods.
 * Events may arrive out of order, so the whole history is replayed each time.
 * An active period's MRR is the plan amount normalised per month; an event
 * with amount 0 keeps the last known plan amount.
 */
export function replay(events: readonly StoredSubscriptionEvent[]): Replayed {
  if (events.length === 0) throw new Error('a subscription has at least one event');
  const periods: Period[] = [];
  let planMrr = 0;
  let firstPaidAt: number | null = null;
  for (const e of events) {
    if (e.amount > 0) planMrr = monthly(e.amount, e.billing_period, e.billing_interval);
    if (firstPaidAt === null && PAYMENT_EVENTS.includes(e.event)) firstPaidAt = e.time;
    const state = TARGET[e.event];
    const mrr = state === 'active' ? planMrr : 0;
    const open = periods[periods.length - 1];
    if (open && open.state === state && open.mrr === mrr && open.currency === e.currency && open.product_id === e.product_id) continue;
    if (open) open.end = e.time;
    periods.push({ state, start: e.time, end: null, mrr, currency: e.currency, product_id: e.product_id });
  }
  const last = periods[periods.length - 1]!;
  return {
    status: last.state,
    periods: periods.filter((p) => p.end === null || p.end > p.start),
    startedAt: events[0]!.time,
    firstPaidAt,
    latest: {
      ...events[events.length - 1]!,
      gateway: events.findLast((e) => e.gateway !== '')?.gateway ?? '',
      country_code: events.findLast((e) => e.country_code !== '')?.country_code ?? '',
    },
    mrr: last.mrr,
  };
}
