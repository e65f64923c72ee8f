import { type PluginContext, SvcError, type SvcServices, badRequest, unavailable } from '../../core';
import type { WooClient } from './client';
import { type IngestEvent, isPaid, orderEvent, reactivationEvent, refundEvent, renewalEvent, renewalOf, subscriptionEvents } from './mapping';
import { WEBHOOK_SECRET } from './settings';
import { verifySignature } from './signature';
import type { WcOrder, WcSubscription } from './types';

const PING = /^webhook_id=\d+$/;

/** What the sales plugin asks of a store's webhook receiver. */
type StoreWebhook = Parameters<SvcServices['sales']['webhookRoute']>[0];

/**
 * The store's order and subscription webhooks, delivered to
 * `POST {api_base}/ecommerce/webhooks/woocommerce` (the sales plugin's
 * route). The raw body is checked against
 * `X-WC-Webhook-Signature` before anything is read; a forged or missing
 * signature answers 400 and stores nothing. Paid orders become `order`
 * events (their refunds, read from the store, `refund` events), renewal
 * orders also `renewed` events, subscriptions their lifecycle events (and a
 * `reactivated` one when a canceled subscription is active again), all
 * through the sales ingestion path.
 */
export function wooWebhook(ctx: PluginContext, client: WooClient, sales: SvcServices['sales']): StoreWebhook {
  return {
    source: 'woocommerce',
    label: 'WooCommerce',
    async receive(raw, headers, siteId) {
      const topic = String(headers['x-wc-webhook-topic'] ?? '');
      if (!topic && !headers['x-wc-webhook-signature'] && PING.test(raw.toString('utf8').trim())) return null;
      const secret = await ctx.settings.get<string>(WEBHOOK_SECRET);
      if (!secret) throw unavailable('WooCommerce webhooks are not configured: set the webhook secret in the settings.', 'svc_webhook_not_configured');
      if (!verifySignature(raw, headers['x-wc-webhook-signature'] as string | undefined, secret)) {
        throw badRequest('The webhook signature does not match.', 'svc_invalid_signature');
      }
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        throw badRequest('The webhook body is not valid JSON.', 'svc_invalid_json');
      }
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw badRequest('The webhook body must be a JSON object.', 'svc_invalid_webhook');
      return { events: await eventsOf(topic, payload, client, sales, siteId, ctx.clock.unix()) };
    },
  };
}

async function eventsOf(topic: string, payload: object, client: WooClient, sales: SvcServices['sales'], siteId: number, now: number): Promise<IngestEvent[]> {
  const resource = topic.split('.')[0];
  if (resource === 'subscription') return subscriptionLifecycle(payload as WcSubscription, sales, siteId, now);
  if (resource !== 'order') return [];
  const order = payload as WcOrder;
  if (!Array.isArray(order.line_items)) throw badRequest('The order has no line_items.', 'svc_invalid_webhook');
  const events: IngestEvent[] = [];
  const placed = orderEvent(order);
  if (placed) events.push(placed);
  const renewed = renewalOf(order);
  if (renewed !== null && isPaid(order)) {
    await needsApi(client, 'A renewal');
    events.push(renewalEvent(await client.subscription(renewed), order));
  }
  if (placed && Array.isArray(order.refunds) && order.refunds.length > 0) {
    await needsApi(client, 'A refund');
    for (const refund of await client.orderRefunds(order.id)) events.push(refundEvent(order, refund));
  }
  return events;
}

/** The lifecycle events of a subscription payload, and a reactivation when it is active again after the cancellation stored for it on the site. */
async function subscriptionLifecycle(s: WcSubscription, sales: SvcServices['sales'], siteId: number, now: number): Promise<IngestEvent[]> {
  const events = subscriptionEvents(s, now);
  const standing = s.status === 'active' ? await sales.subscriptionStanding(siteId, 'woocommerce', String(s.id)) : null;
  const reactivated = standing?.status === 'canceled' ? reactivationEvent(s, standing.since, now) : null;
  if (reactivated) events.push(reactivated);
  return events;
}

async function needsApi(client: WooClient, what: string): Promise<void> {
  if (!(await client.configured())) throw new SvcError('svc_webhook_not_configured', `${what} needs the store REST API: set the store address and API keys.`, 503);
}
