import type { SalesCore } from '../core';
import { MAX_EVENTS } from '../ingest/ingest';
import { demoShop } from './demo-shop';

/**
 * Taps tracking's `svc_demo_generated` (declared here too, so the tap holds
 * whether or not tracking loads): `svc demo` then fills a shop for the visits
 * it generated, through the ingestion path.
 */
export function tapDemo(core: SalesCore): void {
  const { ctx } = core;
  ctx.hooks.declareAction('svc_demo_generated', ['visits']);
  ctx.hooks.addAction('svc_demo_generated', async (visits) => {
    const events = demoShop(visits, new URL(ctx.config.baseUrl).origin, ctx.clock.unix());
    let accepted = 0;
    for (let i = 0; i < events.length; i += MAX_EVENTS) accepted += (await core.ingest(events.slice(i, i + MAX_EVENTS), { source: 'api' })).accepted;
    ctx.logger.info({ events: events.length, accepted }, `demo shop: ${accepted} ecommerce events for ${visits.length} page views`);
  });
}
