import { type PluginContext, type SvcServices, badRequest, unavailable } from '../../core';
import type { StripeClient } from './client';
import { type IngestEvent, checkoutOrder, invoiceSubscription, isRenewal, reactivation, refundEvent, refundFailed, refundSucceeded, renewal, subscriptionEvents } from './mapping';
import { WEBHOOK_SECRET } from './settings';
import type { StripeCharge, StripeCheckoutSession, StripeInvoice, StripeRefund } from './types';

/** Stripe's default: a signature older than five minutes is refused (replays). */
const TOLERANCE_SECONDS = 300;

/** What the sales plugin asks of a store's webhook receiver. */
type StoreWebhook = Parameters<SvcServices['sales']['webhookRoute']>[0];
/** What one Stripe event asks of sales: events to ingest, and refunds that failed after all. */
type Delivery = NonNullable<Awaited<ReturnType<StoreWebhook['receive']>>>;

interface VerifiedEvent {
  id: string;
  type: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
}

/**
 * Stripe's deliveries to `POST {api_base}/ecommerce/webhooks/stripe` (the
 * sales plugin's route): Stripe events, verified with
 * `Stripe-Signature` by the `stripe` package before anything is read (a
 * forged, stale or missing signature answers 400 and stores nothing). Paid
 * Checkout Sessions become orders, their succeeded refunds (`refund.created`,
 * `refund.updated`, `charge.refunded`) refunds, and a stored refund that fails
 * later (`refund.failed`, or `failed`/`canceled` in those events) is taken back
 * (the answer's `withdrawn` counts them, when there are any); `customer.subscription.*`
 * events the subscription's lifecycle, paid renewal invoices renewals; the
 * current subscription is read from the API so every event carries its plan.
 */
export function stripeWebhook(ctx: PluginContext, client: StripeClient): StoreWebhook {
  return {
    source: 'stripe',
    label: 'Stripe',
    async receive(raw, headers) {
      const secret = await ctx.settings.get<string>(WEBHOOK_SECRET);
      if (!secret || !(await client.configured())) {
        throw unavailable('Stripe webhooks are not configured: set the signing secret and the API key in the settings.', 'svc_webhook_not_configured');
      }
      const sdk = await client.sdk();
      let event: VerifiedEvent;
      try {
        event = sdk.webhooks.constructEvent(raw, String(headers['stripe-signature'] ?? ''), secret, TOLERANCE_SECONDS, undefined, ctx.clock.ms()) as unknown as VerifiedEvent;
      } catch {
        throw badRequest('The Stripe-Signature does not match this payload.', 'svc_invalid_signature');
      }
      return deliveryOf(event, client, ctx.clock.unix());
    },
  };
}

async function deliveryOf(event: VerifiedEvent, client: StripeClient, now: number): Promise<Delivery> {
  const object = event.data.object as { id?: unknown };
  if (!object || typeof object.id !== 'string') throw badRequest('The event carries no object.', 'svc_invalid_webhook');
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = object as StripeCheckoutSession;
      if (session.mode !== 'payment' || session.payment_status !== 'paid') return { events: [] };
      return { events: [checkoutOrder(session, await client.lineItems(session.id), event.created)] };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = await client.subscription(object.id);
      const events = subscriptionEvents(subscription, now);
      const before = event.data.previous_attributes;
      if (before?.cancel_at_period_end === true && !subscription.cancel_at_period_end && subscription.status === 'active') {
        events.push(reactivation(subscription, event.id, event.created));
      }
      return { events };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
      return refundDelivery([object as StripeRefund], client);
    case 'charge.refunded': {
      const charge = object as StripeCharge;
      return refundDelivery(await client.chargeRefunds(charge.id), client);
    }
    case 'invoice.paid': {
      const invoice = object as StripeInvoice;
      const subscriptionId = invoiceSubscription(invoice);
      if (!subscriptionId || !isRenewal(invoice)) return { events: [] };
      return { events: [renewal(await client.subscription(subscriptionId), invoice)] };
    }
    default:
      return { events: [] };
  }
}

/**
 * The succeeded refunds of Checkout Session payments as `refund` events of
 * those orders (refunds of other payments, subscription invoices, are not
 * orders and are left out), and the ids of the failed ones.
 */
async function refundDelivery(refunds: readonly StripeRefund[], client: StripeClient): Promise<Delivery> {
  const events: IngestEvent[] = [];
  for (const refund of refunds.filter(refundSucceeded)) {
    const session = refund.payment_intent ? await client.sessionOfPayment(refund.payment_intent) : null;
    if (session) events.push(refundEvent(refund, session));
  }
  return { events, failedRefunds: refunds.filter(refundFailed).map((r) => r.id) };
}
