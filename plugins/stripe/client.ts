import Stripe from 'stripe';
import type { PluginSettings } from '../../core';
import { API_BASE, API_KEY } from './settings';
import type { StripeCheckoutSession, StripeInvoice, StripeLineItem, StripeRefund, StripeSubscription } from './types';

const TIMEOUT_MS = 15_000;

/** Read access to the Stripe account through the `stripe` package (at `svc_stripe_api_base` when set). */
export class StripeClient {
  constructor(private readonly settings: PluginSettings) {}

  async configured(): Promise<boolean> {
    return Boolean(await this.settings.get<string>(API_KEY));
  }

  /** An SDK instance; without a key it can still verify signatures (no request is made). */
  async sdk(): Promise<Stripe> {
    const key = (await this.settings.get<string>(API_KEY)) || 'sk_signature_check_only';
    const base = await this.settings.get<string>(API_BASE);
    if (!base) return new Stripe(key, { timeout: TIMEOUT_MS, maxNetworkRetries: 1 });
    const url = new URL(base);
    return new Stripe(key, {
      timeout: TIMEOUT_MS,
      maxNetworkRetries: 1,
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    });
  }

  async subscription(id: string): Promise<StripeSubscription> {
    return (await (await this.sdk()).subscriptions.retrieve(id, { expand: ['items.data.price.product'] })) as unknown as StripeSubscription;
  }

  async lineItems(sessionId: string): Promise<StripeLineItem[]> {
    const items: StripeLineItem[] = [];
    const list = (await this.sdk()).checkout.sessions.listLineItems(sessionId, { limit: 100, expand: ['data.price.product'] });
    for await (const item of list) items.push(item as unknown as StripeLineItem);
    return items;
  }

  /** The Checkout Session that took a payment, or null when the payment came from elsewhere (an invoice, the dashboard). */
  async sessionOfPayment(paymentIntent: string): Promise<StripeCheckoutSession | null> {
    const page = await (await this.sdk()).checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
    return (page.data[0] as unknown as StripeCheckoutSession | undefined) ?? null;
  }

  /** Every refund of a charge. */
  async chargeRefunds(chargeId: string): Promise<StripeRefund[]> {
    const refunds: StripeRefund[] = [];
    for await (const refund of (await this.sdk()).refunds.list({ charge: chargeId, limit: 100 })) refunds.push(refund as unknown as StripeRefund);
    return refunds;
  }

  /** One page of every subscription (newest first, as Stripe lists them). */
  async subscriptions(startingAfter: string | null): Promise<{ data: StripeSubscription[]; hasMore: boolean }> {
    const page = await (await this.sdk()).subscriptions.list({
      status: 'all',
      limit: 100,
      expand: ['data.items.data.price.product'],
      ...(startingAfter ? { starting_after: startingAfter } : {}),
    });
    return { data: page.data as unknown as StripeSubscription[], hasMore: page.has_more };
  }

  async paidInvoices(subscriptionId: string): Promise<StripeInvoice[]> {
    const invoices: StripeInvoice[] = [];
    for await (const invoice of (await this.sdk()).invoices.list({ subscription: subscriptionId, status: 'paid', limit: 100 })) invoices.push(invoice as unknown as StripeInvoice);
    return invoices;
  }

  /** Start of the account's first subscription (Stripe cannot list oldest first, so every one is read once). */
  async earliestStart(): Promise<number | null> {
    let earliest: number | null = null;
    for await (const s of (await this.sdk()).subscriptions.list({ status: 'all', limit: 100 })) {
      const start = (s as unknown as StripeSubscription).start_date;
      earliest = earliest === null ? start : Math.min(earliest, start);
    }
    return earliest;
  }
}
