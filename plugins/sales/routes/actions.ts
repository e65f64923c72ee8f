import { notFound } from '../../../core';
import type { SalesApp } from '../app';

/** `GET {api_base}/get_action/ecommerce/{action}` (§4.4): only the backfill progress, answered without the envelope. */
export function registerActionRoute(app: SalesApp): void {
  app.ctx.rest.route({
    method: 'GET',
    path: '/get_action/ecommerce/:action',
    capability: 'view_sales_svc_statistics',
    meta: { tab: 'sales' },
    handler: async ({ params }) => {
      if (params.action !== 'get_subscriptions_backfill_progress') throw notFound('Unknown ecommerce action.', 'svc_unknown_action');
      await app.checkIntegrations();
      return app.backfill.progress();
    },
  });
}
