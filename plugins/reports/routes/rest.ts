import { ok, type PluginContext } from '../../../core';
import type { ReportsApp } from '../app';
import { LOG_WINDOW_DAYS } from '../constants';
import { queueLogs } from '../services/log-list';
import type { ReportActions } from './actions';

/**
 * The report routes of §4.1. The two lists need the `svc_nonce` of every
 * caller, application passwords included (§5 rule 1); the kernel checks the
 * capability first, then the nonce.
 */
export function registerRestRoutes(ctx: PluginContext, app: ReportsApp, actions: ReportActions): void {
  ctx.rest.route({
    method: 'GET',
    path: '/reports',
    capability: 'manage_svc_statistics',
    nonce: 'every-caller',
    handler: async ({ site }) => ok({ reports: await app.objects.list(site.id) }),
  });
  ctx.rest.route({
    method: 'GET',
    path: '/report/logs',
    capability: 'manage_svc_statistics',
    nonce: 'every-caller',
    handler: async ({ site }) => ok({ logs: await queueLogs(app, site.id, ctx.clock.unix() - LOG_WINDOW_DAYS * 86_400) }),
  });
  ctx.rest.route({
    method: 'POST',
    path: '/do_action/report/:action',
    capability: 'manage_options',
    handler: async ({ site, params, body }) => ok(await actions.run(site, params.action ?? '', body)),
  });
}
