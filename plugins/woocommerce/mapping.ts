import type { WcOrder, WcRefund, WcSubscription } from './types';

/** An event of the sales ingestion API (its fields are documented in plugins/sales/README.md). */
export type IngestEvent = Record<string, unknown>;

/** Order statuses that mean the order was paid. */
const PAID = ['processing', 'completed'];
/** Subscription statuses that had a start (not pending payment). */
const STARTED = ['active', 'on-hold', 'pending-cancel', 'cancelled', 'expired'];

/** WooCommerce GMT dates come without a zone: "2025-01-15T10:00:00". */
export function gmt(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(/Z|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isFinite(t) ? Math.floor(t / 1000) : null;
}

const meta = (o: WcOrder | WcSubscription, key: string) => o.meta_data?.find((m) => m.key === key)?.value;

/** The visitor uid the shop stored on the order or subscription (`_svc_uid`), linking it to the tracked session. */
const uidOf = (o: WcOrder | WcSubscription) => String(meta(o, '_svc_uid') ?? meta(o, 'svc_uid') ?? '').slice(0, 64);

/** Paid, or refunded after it was paid (its refunds need the order). */
export const isPaid = (o: WcOrder): boolean => PAID.includes(o.status) || (o.status === 'refunded' && Boolean(o.date_paid_gmt));

/** The subscription a renewal order renews (`_subscription_renewal`), or null. */
export function renewalOf(o: WcOrder): number | null {
  const id = Number(meta(o, '_subscription_renewal'));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A paid order as an `order` event; null while it is unpaid. */
export function orderEvent(o: WcOrder): IngestEvent | null {
  if (!isPaid(o)) return null;
  return {
    type: 'order',
    id: `order-${o.id}`,
    order_id: String(o.id),
    uid: uidOf(o),
    currency: o.currency,
    total: o.total,
    items: o.line_items.map((li) => ({
      product_id: li.product_id,
      product_name: li.name,
      quantity: li.quantity,
      price: li.price ?? Number(li.total) / Math.max(1, li.quantity),
    })),
    time: gmt(o.date_paid_gmt) ?? gmt(o.date_created_gmt),
  };
}

function plan(s: WcSubscription) {
  const item = s.line_items[0];
  return {
    subscription_id: String(s.id),
    uid: uidOf(s),
    product_id: item?.product_id,
    product_name: item?.name,
    amount: s.total,
    currency: s.currency,
    billing_period: s.billing_period,
    billing_interval: Number(s.billing_interval),
    gateway: s.payment_method ?? '',
    country_code: s.billing?.country ?? '',
  };
}

/**
 * The lifecycle events a subscription's dates and status imply: its start
 * (a trial or a paid start), the trial's conversion, a cancellation and an
 * expiry. Ids are derived from the dates, so sending the same subscription
 * again (every `subscription.updated`, every backfill run) adds nothing.
 * Renewals come from renewal orders (`renewalEvent`).
 */
export function subscriptionEvents(s: WcSubscription, now: number): IngestEvent[] {
  const start = gmt(s.start_date_gmt);
  if (start === null || !STARTED.includes(s.status)) return [];
  const p = plan(s);
  const trialEnd = gmt(s.trial_end_date_gmt);
  const canceled = gmt(s.cancelled_date_gmt);
  const events: IngestEvent[] = [];
  const event = (name: string, time: number, suffix: string) => events.push({ type: 'subscription', id: `sub-${s.id}-${suffix}`, event: name, ...p, time });
  if (trialEnd !== null && trialEnd > start) {
    event('trial_started', start, 'start');
    if (trialEnd <= now && (canceled === null || canceled > trialEnd)) event('converted', trialEnd, 'converted');
  } else {
    event('created', start, 'start');
  }
  if (canceled !== null && ['pending-cancel', 'cancelled', 'expired'].includes(s.status)) event('canceled', canceled, `canceled-${canceled}`);
  const end = gmt(s.end_date_gmt);
  if (s.status === 'expired' && end !== null) event('expired', end, `expired-${end}`);
  return events;
}

/** A refund of order `o` as a `refund` event (quantities and line totals made positive). */
export function refundEvent(o: WcOrder, r: WcRefund): IngestEvent {
  const items = (r.line_items ?? [])
    .map((li) => ({ product_id: li.product_id, quantity: Math.abs(li.quantity), amount: Math.abs(Number(li.total)) }))
    .filter((i) => i.quantity > 0 || i.amount > 0);
  return {
    type: 'refund',
    id: `refund-${r.id}`,
    refund_id: String(r.id),
    order_id: String(o.id),
    amount: Math.abs(Number(r.amount)),
    ...(items.length ? { items } : {}),
    time: gmt(r.date_created_gmt),
  };
}

/**
 * A subscription active again after the cancellation we stored (WooCommerce
 * sends no event of its own for it): `reactivated` at its modification time.
 * A payload older than the cancellation (a late delivery) is not one.
 */
export function reactivationEvent(s: WcSubscription, canceledSince: number, now: number): IngestEvent | null {
  const time = gmt(s.date_modified_gmt) ?? now;
  if (s.status !== 'active' || time <= canceledSince) return null;
  return { type: 'subscription', id: `sub-${s.id}-reactivated-${time}`, event: 'reactivated', ...plan(s), time };
}

/** A paid renewal order of `s` as a `renewed` event. */
export function renewalEvent(s: WcSubscription, o: WcOrder): IngestEvent {
  return {
    type: 'subscription',
    id: `order-${o.id}-renewal`,
    event: 'renewed',
    ...plan(s),
    amount: o.total,
    currency: o.currency,
    time: gmt(o.date_paid_gmt) ?? gmt(o.date_created_gmt),
  };
}
