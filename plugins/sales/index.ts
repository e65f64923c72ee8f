import { definePlugin } from '../../core';
import { BACKFILL_HOOK } from './backfill/backfill';
import { registerSalesTab } from './admin/tab';
import { registerSalesCommand } from './cli';
import { createSalesCore } from './composition';
import { Currencies, currencySetting } from './data/currency';
import { registerSalesData } from './data/register';
import { datatableService } from './datatables/service';
import { tapDemo } from './demo/register';
import { salesMigrations } from './migrations';
import { registerActionRoute } from './routes/actions';
import { registerIngestRoute } from './routes/ingest';
import { subscriptionStanding } from './subscriptions/store';
import './contract';

/** Business tier: ecommerce ingestion and analytics, subscriptions and their backfill (ecommerce.md). */
export default definePlugin({
  name: 'sales',
  tier: 'business',
  migrations: salesMigrations,
  async register(ctx) {
    const core = createSalesCore(ctx);
    await core.activation.init();
    ctx.hooks.declareAction(BACKFILL_HOOK, ['integration', 'phase', 'cursor', 'attempt']);
    ctx.hooks.addAction(BACKFILL_HOOK, (integration, phase, cursor, attempt) => core.backfill.run(integration, phase, cursor, attempt));
    ctx.hooks.addAction('svc_every_hour', () => core.checkIntegrations());
    ctx.services.provide('sales', {
      ingest: (events, options) => core.ingest(events, options),
      subscriptionStanding: (source, subscriptionId) => subscriptionStanding(ctx.db, source, subscriptionId),
      withdrawRefund: (source, refundId) => core.ingestor.withdrawRefund(source, refundId),
      registerIntegration: (integration) => core.integrations.register(integration),
      ...datatableService(ctx),
    });
    ctx.settings.register(currencySetting);
    const currencies = new Currencies(ctx.db, ctx.settings);
    registerSalesData(core, currencies);
    registerSalesTab(core, currencies);
    tapDemo(core);
    registerIngestRoute(core);
    registerActionRoute(core);
    registerSalesCommand(core);
  },
});
