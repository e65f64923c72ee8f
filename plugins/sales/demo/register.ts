import { DEFAULT_SITE_ID } from '../../../core';
import type { SalesApp } from '../app';
import { MAX_EVENTS } from '../ingest/ingest';
import { refoldFrom } from '../rollups/register';
import { demoShop } from './demo-shop';
import { DEMO_SOURCE, removeDemoShop } from './remove';

/**
 * Taps tracking's `svc_demo_generated` (declared here too, so the tap holds
 * whether or not tracking loads): `svc demo` then fills a shop for the visits
 * it generated, through the ingestion path, under the source `demo`; and
 * taps `svc_demo_removal` to delete exactly those rows again. The visits
 * (and the removal) change sessions of days that may be folded already, so
 * those days of the shop roll-ups are folded again.
 */
export function tapDemo(app: SalesApp): void {
  const { ctx } = app;
  ctx.hooks.declareAction('svc_demo_generated', ['visits']);
  ctx.hooks.addAction('svc_demo_generated', async (visits) => {
    const events = demoShop(visits, new URL(ctx.config.baseUrl).origin, ctx.clock.unix());
    let accepted = 0;
    for (let i = 0; i < events.length; i += MAX_EVENTS) accepted += (await app.ingest(events.slice(i, i + MAX_EVENTS), { source: DEMO_SOURCE, siteId: DEFAULT_SITE_ID })).accepted;
    ctx.logger.info({ events: events.length, accepted }, `demo shop: ${accepted} ecommerce events for ${visits.length} page views`);
    if (visits.length) await refoldFrom(app, DEFAULT_SITE_ID, visits.reduce((min, v) => Math.min(min, v.time), Infinity));
  });
  ctx.hooks.declareFilter('svc_demo_removal', ['report']);
  ctx.hooks.addFilter('svc_demo_removal', async (report) => {
    const removed = await removeDemoShop(ctx.db, app.timezone);
    await app.integrations.forget(DEMO_SOURCE);
    await refoldFrom(app, DEFAULT_SITE_ID, 0);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    return [...report, `Removed the demo shop: ${count(removed.orders, 'order')}, ${count(removed.subscriptions, 'subscription')} and ${count(removed.events, 'visitor event')}.`];
  });
}
