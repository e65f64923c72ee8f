import { definePlugin } from '../../core';
import { WooClient } from './client';
import { gmt, isPaid, renewalEvent, subscriptionEvents } from './mapping';
import { WEBHOOK_SECRET, WOOCOMMERCE_SETTINGS } from './settings';
import { wooWebhook } from './webhook';

const PAGE_SIZE = 50;

/**
 * Business tier: WooCommerce (with WooCommerce Subscriptions) as a store
 * integration of the sales plugin: a signed webhook receiver for orders and
 * subscriptions, and a subscription integration whose history feeds the
 * backfill through the store's REST API.
 */
export default definePlugin({
  name: 'woocommerce',
  tier: 'business',
  requires: ['sales'],
  register(ctx) {
    const sales = ctx.services.require('sales');
    for (const field of WOOCOMMERCE_SETTINGS) ctx.settings.register(field);
    const client = new WooClient(ctx.settings);
    ctx.rest.route(sales.webhookRoute(wooWebhook(ctx, client, sales)));
    sales.registerIntegration({
      id: 'woocommerce',
      label: 'WooCommerce',
      isActive: async () => (await client.configured()) && Boolean(await ctx.settings.get<string>(WEBHOOK_SECRET)),
      async earliestSubscriptionDate() {
        const { body } = await client.subscriptions(1, 1);
        return gmt(body[0]?.start_date_gmt);
      },
      async listSubscriptions(cursor) {
        const page = cursor === null ? 1 : Number(cursor);
        const { body, totalPages } = await client.subscriptions(page, PAGE_SIZE);
        const events = [];
        for (const subscription of body) {
          events.push(...subscriptionEvents(subscription, ctx.clock.unix()));
          for (const order of await client.subscriptionOrders(subscription.id)) {
            if (order.id !== subscription.parent_id && isPaid(order)) events.push(renewalEvent(subscription, order));
          }
        }
        return { events, next: page < totalPages ? String(page + 1) : null, listed: Math.min(1, page / Math.max(1, totalPages)) };
      },
    });
  },
});
