import type { StripeCheckoutSession, StripeInvoice, StripeLineItem, StripePrice, StripeProduct, StripeRefund, StripeSubscription } from './types';

/** An event of the sales ingestion API (its fields are documented in plugins/sales/README.md). */
export type IngestEvent = Record<string, unknown>;

const minorDigits = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Stripe amounts are in the currency's minor unit (cents; yen as they are). */
export const major = (amount: number, currency: string): number => amount / 10 ** minorDigits(currency.toUpperCase());

/**
 * Products need whole-number ids: `svc_product_id` from the product's or the
 * price's metadata, else a stable 31-bit FNV-1a hash of the Stripe product id.
 */
export function productId(price: StripePrice): number {
  const product = typeof price.product === 'string' ? null : price.product;
  const declared = Number(product?.metadata?.svc_product_id ?? price.metadata?.svc_product_id);
  if (Number.isSafeInteger(declared) && declared > 0) return declared;
  const id = typeof price.product === 'string' ? price.product : price.product.id;
  let hash = 0x811c9dc5;
  for (const ch of id) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return (hash & 0x7fffffff) || 1;
}

function productName(price: StripePrice): string {
  const product: StripeProduct | null = typeof price.product === 'string' ? null : price.product;
  return product?.name || price.nickname || (typeof price.product === 'string' ? price.product : price.product.id);
}

function plan(s: StripeSubscription) {
  const item = s.items.data[0];
  const price = item?.price;
  return {
    subscription_id: s.id,
    uid: (s.metadata?.svc_uid ?? '').slice(0, 64),
    product_id: price ? productId(price) : undefined,
    product_name: price ? productName(price) : undefined,
    amount: price?.unit_amount != null ? major(price.unit_amount * (item?.quantity ?? 1), price.currency) : undefined,
    currency: (price?.currency ?? s.currency).toUpperCase(),
    billing_period: price?.recurring?.interval,
    billing_interval: price?.recurring?.interval_count,
    gateway: 'stripe',
  };
}

/**
 * The lifecycle a subscription's timestamps imply: its start (a trial or a
 * paid start), the trial's conversion, a cancellation, the end. Ids come from
 * the timestamps, so every later `customer.subscription.*` event and every
 * backfill run resends them without adding anything.
 */
export function subscriptionEvents(s: StripeSubscription, now: number): IngestEvent[] {
  if (s.status === 'incomplete' || s.status === 'incomplete_expired') return [];
  const p = plan(s);
  const events: IngestEvent[] = [];
  const event = (name: string, time: number, suffix: string) => events.push({ type: 'subscription', id: `sub-${s.id}-${suffix}`, event: name, ...p, time });
  const trial = s.trial_start !== null && s.trial_end !== null && s.trial_end > s.trial_start;
  if (trial) {
    event('trial_started', s.trial_start!, 'start');
    if (s.trial_end! <= now && s.status !== 'trialing' && (s.canceled_at === null || s.canceled_at > s.trial_end!)) event('converted', s.trial_end!, 'converted');
  } else {
    event('created', s.start_date, 'start');
  }
  if (s.canceled_at !== null && (s.cancel_at_period_end || s.status === 'canceled')) event('canceled', s.canceled_at, `canceled-${s.canceled_at}`);
  if (s.ended_at !== null) event('expired', s.ended_at, `expired-${s.ended_at}`);
  return events;
}

/** A subscription whose pending cancellation was withdrawn (`cancel_at_period_end` back to false). */
export function reactivation(s: StripeSubscription, eventId: string, time: number): IngestEvent {
  return { type: 'subscription', id: `event-${eventId}`, event: 'reactivated', ...plan(s), time };
}

/** The subscription an invoice bills, across API versions. */
export const invoiceSubscription = (i: StripeInvoice): string | null => i.parent?.subscription_details?.subscription ?? i.subscription ?? null;

/** A paid renewal invoice (`billing_reason` subscription_cycle) as a `renewed` event. */
export function renewal(s: StripeSubscription, i: StripeInvoice): IngestEvent {
  return {
    type: 'subscription',
    id: `invoice-${i.id}`,
    event: 'renewed',
    ...plan(s),
    amount: major(i.amount_paid, i.currency),
    currency: i.currency.toUpperCase(),
    time: i.status_transitions?.paid_at ?? i.created,
  };
}

export const isRenewal = (i: StripeInvoice): boolean => i.status === 'paid' && i.billing_reason === 'subscription_cycle';

/** A refund that went through (`succeeded`); pending, failed and canceled ones take nothing back. */
export const refundSucceeded = (r: StripeRefund): boolean => r.status === 'succeeded';

/** A refund that will give nothing back: one that succeeded may still fail later (a closed card). */
export const refundFailed = (r: StripeRefund): boolean => r.status === 'failed' || r.status === 'canceled';

/** A succeeded refund of a Checkout Session's payment as a `refund` event of that order. */
export function refundEvent(r: StripeRefund, session: StripeCheckoutSession): IngestEvent {
  return {
    type: 'refund',
    id: `refund-${r.id}`,
    refund_id: r.id,
    order_id: session.id,
    amount: major(r.amount, r.currency),
    currency: r.currency.toUpperCase(),
    time: r.created,
  };
}

/** A paid one-off Checkout Session as an `order` event, its lines as items. */
export function checkoutOrder(session: StripeCheckoutSession, items: StripeLineItem[], time: number): IngestEvent {
  const currency = (session.currency ?? '').toUpperCase();
  return {
    type: 'order',
    id: `checkout-${session.id}`,
    order_id: session.id,
    uid: (session.client_reference_id ?? session.metadata?.svc_uid ?? '').slice(0, 64),
    currency,
    total: major(session.amount_total ?? 0, currency || 'USD'),
    items: items.map((li) => ({
      product_id: li.price ? productId(li.price) : undefined,
      product_name: li.description ?? (li.price ? productName(li.price) : undefined),
      quantity: li.quantity ?? 1,
      price: major(li.amount_total / Math.max(1, li.quantity ?? 1), currency || 'USD'),
    })),
    time,
  };
}
