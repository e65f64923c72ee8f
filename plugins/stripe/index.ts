import { definePlugin } from '../../core';
import { StripeClient } from './client';
import { invoiceSubscription, isRenewal, renewal, subscriptionEvents } from './mapping';
import { STRIPE_SETTINGS, WEBHOOK_SECRET } from './settings';
import { stripeWebhook } from './webhook';

/**
 * Business tier: Stripe as a store integration of the sales plugin: a
 * webhook receiver verified with the `stripe` package (Checkout Sessions,
 * subscriptions, invoices) and a subscription integration whose history
 * feeds the backfill through the Stripe API.
 */
export default definePlugin({
  name: 'stripe',
  tier: 'business',
  requires: ['sales'],
  register(ctx) {
    const sales = ctx.services.require('sales');
    for (const field of STRIPE_SETTINGS) ctx.settings.register(field);
    const client = new StripeClient(ctx.settings);
    ctx.rest.route(sales.webhookRoute(stripeWebhook(ctx, client)));
    sales.registerIntegration({
      id: 'stripe',
      label: 'Stripe',
      isActive: async () => (await client.configured()) && Boolean(await ctx.settings.get<string>(WEBHOOK_SECRET)),
      earliestSubscriptionDate: () => client.earliestStart(),
      async listSubscriptions(cursor) {
        const page = await client.subscriptions(cursor);
        const events = [];
        for (const subscription of page.data) {
          events.push(...subscriptionEvents(subscription, ctx.clock.unix()));
          for (const invoice of await client.paidInvoices(subscription.id)) {
            if (isRenewal(invoice) && invoiceSubscription(invoice) === subscription.id) events.push(renewal(subscription, invoice));
          }
        }
        const last = page.data[page.data.length - 1];
        return { events, next: page.hasMore && last ? last.id : null };
      },
    });
  },
});
