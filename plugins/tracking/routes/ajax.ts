import express, { Router } from 'express';
import { badRequest, corsMiddleware, forbidden, type PluginContext } from '../../../core';
import { cleanText } from '../collect/text';
import { trackingCors } from './cors';

const FIELDS = ['message', 'status', 'url', 'endpoint', 'error', 'data'] as const;

/**
 * `POST {base_url}/svc/ajax` with `action=svc_tracking_error`: the tracker's
 * report of a failed request, written to the error log in debug mode only
 * (tracking.md §4, §7).
 */
export function registerAjaxRoute(ctx: PluginContext): void {
  const router = Router();
  router.use(corsMiddleware(trackingCors(ctx.config)));
  router.post('/', express.urlencoded({ extended: false, limit: '64kb' }), express.json({ limit: '64kb' }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.action !== 'svc_tracking_error') throw badRequest('action: unknown action.', 'svc_unknown_action');
    if (!ctx.config.debug) throw forbidden('Tracking error reports are accepted in debug mode only.', 'svc_debug_off');
    const report: Record<string, string> = {};
    for (const field of FIELDS) {
      const value = body[field];
      if (value !== undefined) report[field] = cleanText(typeof value === 'string' ? value : JSON.stringify(value), 1000);
    }
    ctx.logger.error({ report, ua: cleanText(req.headers['user-agent'], 300) }, 'tracking error reported by the browser');
    res.json({ success: true });
  });
  ctx.http.mount('/svc/ajax', router, { quiet: true });
}
