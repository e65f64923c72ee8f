import { definePlugin } from '../../core';
import { BACKFILL_HOOK } from './backfill/backfill';
import { registerSalesTab } from './admin/tab';
import { registerSalesCommand } from './cli';
import { createSalesApp } from './app';
import { Currencies, currencySetting } from './data/currency';
import { registerSalesData } from './data/register';
import { datatableService } from './datatables/service';
import { tapDemo } from './demo/register';
import { salesMigrations } from './migrations';
import { registerActionRoute } from './routes/actions';
import { registerRollups } from './rollups/register';
import { registerIngestRoute } from './routes/ingest';
import { webhookRoute } from './routes/webhooks';
import { addUpSubscriptionMonths } from './subscriptions/register';
import { subscriptionStanding } from './subscriptions/store';
import type { SalesService } from './contract';

/** Business tier: ecommerce ingestion and analytics, subscriptions and their backfill (ecommerce.md). */
export default definePlugin({
  name: 'sales',
  tier: 'business',
  migrations: salesMigrations,
  async register(ctx) {
    const app = createSalesApp(ctx);
    await app.activation.init();
    await addUpSubscriptionMonths(app);
    ctx.hooks.declareAction(BACKFILL_HOOK, ['integration', 'phase', 'cursor', 'attempt']);
    ctx.hooks.addAction(BACKFILL_HOOK, (integration, phase, cursor, attempt) => app.backfill.run(integration, phase, cursor, attempt));
    ctx.hooks.addAction('svc_every_hour', () => app.checkIntegrations());
    registerRollups(app);
    const sales: SalesService = {
      ingest: (events, options) => app.ingest(events, options),
      subscriptionStanding: (siteId, source, subscriptionId) => subscriptionStanding(ctx.db, siteId, source, subscriptionId),
      withdrawRefund: (siteId, source, refundId) => app.ingestor.withdrawRefund(siteId, source, refundId),
      registerIntegration: (integration) => app.integrations.register(integration),
      webhookRoute: (store) => webhookRoute(sales, store),
      ...datatableService(ctx),
    };
    ctx.services.provide('sales', sales);
    ctx.settings.register(currencySetting);
    const currencies = new Currencies(ctx.db, ctx.settings);
    registerSalesData(app, currencies);
    registerSalesTab(app, currencies);
    tapDemo(app);
    registerIngestRoute(app);
    registerActionRoute(app);
    registerSalesCommand(app);
  },
});
