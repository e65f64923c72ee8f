import express from 'express';
import { describeError, isSvcError, unavailable } from '../../../core';
import type { SalesService, StoreWebhook, WebhookRoute } from '../contract';

/** Largest webhook delivery a store sends. */
const WEBHOOK_BODY_LIMIT = '2mb';

/** A store API that cannot be reached answers 503, so the store delivers the event again later. */
async function reachable<T>(label: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isSvcError(err)) throw err;
    throw unavailable(`The ${label} API could not be read: ${describeError(err)}`, 'svc_store_unreachable');
  }
}

/**
 * `POST {api_base}/ecommerce/webhooks/{source}`: a store's deliveries, read
 * raw so the store can check its signature before anything is parsed; the
 * events it makes of them go through the ingestion path with its `source`,
 * and refunds that failed after all are taken back (the answer's `withdrawn`
 * counts them, when there are any). The events go to the site the
 * delivery URL names (`?site=`), the default site without one.
 */
export function webhookRoute(sales: Pick<SalesService, 'ingest' | 'withdrawRefund'>, store: StoreWebhook): WebhookRoute {
  return {
    method: 'POST',
    path: `/ecommerce/webhooks/${store.source}`,
    capability: null,
    nonce: 'none',
    before: [express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT })],
    handler: async ({ body, headers, site }) => {
      const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const delivery = await reachable(store.label, () => store.receive(raw, headers, site.id));
      if (delivery === null) return { success: true };
      const result = await sales.ingest(delivery.events, { source: store.source, siteId: site.id });
      let withdrawn = 0;
      for (const id of delivery.failedRefunds ?? []) if (await sales.withdrawRefund(site.id, store.source, id)) withdrawn++;
      return { success: true, ...result, ...(withdrawn ? { withdrawn } : {}) };
    },
  };
}
