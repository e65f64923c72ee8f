import { ok, type PluginContext } from '../../../core';
import type { TransportStatusService } from '../status/transport-status';

/** `GET {api_base}/tracking/status` and the self-test `POST {api_base}/tracking/status/test` (§2.7). */
export function registerStatusRoutes(ctx: PluginContext, status: TransportStatusService): void {
  ctx.rest.route({ method: 'GET', path: '/tracking/status', capability: 'view_svc_statistics', handler: async () => ok(await status.get()) });
  ctx.rest.route({ method: 'POST', path: '/tracking/status/test', capability: 'manage_options', handler: async () => ok(await status.test()) });
  ctx.hooks.addAction('svc_daily', async () => {
    await status.test();
  });
}
