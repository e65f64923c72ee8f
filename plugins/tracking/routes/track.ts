import express, { type Request, type Response, Router } from 'express';
import { trackingCors } from '../../../core/http/cors';
import type { PluginContext } from '../../../core/plugins/context';
import { ANONYMOUS } from '../../../core/auth/types';
import { decodeBody } from '../collect/payload';
import type { Tracker } from '../collect/tracker';
import { asTrackingError, trackResponse } from './respond';

const BODY = { limit: '64kb', types: ['application/json', 'text/plain'] };

/**
 * The two transports of tracking.md §4, running the same pipeline object:
 * `POST {api_base}/track` (JSON, the payload double-encoded or a plain
 * object) and the beacon `POST {base_url}/svc/endpoint` (raw body).
 */
export function registerTrackRoutes(ctx: PluginContext, tracker: Tracker): void {
  const debug = ctx.config.debug;
  ctx.rest.route({
    method: 'POST',
    path: '/track',
    capability: null,
    body: BODY,
    before: [trackingCors(ctx.config)],
    handler: async (req) => {
      const payload = decodeBody(req.body);
      if (payload === 'test') return { success: 'test' };
      try {
        const result = await tracker.track(payload, { headers: req.headers, remoteAddress: req.raw.socket.remoteAddress, principal: req.principal });
        return trackResponse(result, debug);
      } catch (err) {
        throw asTrackingError(err, ctx.logger);
      }
    },
  });

  const handle = async (req: Request, res: Response) => {
    const payload = decodeBody(typeof req.body === 'string' ? req.body : '');
    if (payload === 'test') {
      res.status(200).end();
      return;
    }
    try {
      const result = await tracker.track(payload, { headers: req.headers, remoteAddress: req.socket.remoteAddress, principal: req.principal ?? ANONYMOUS });
      if (!result.recorded && debug) res.status(200).type('text/plain').send(result.outcome);
      else res.status(200).end();
    } catch (err) {
      throw asTrackingError(err, ctx.logger);
    }
  };
  const beacon = Router();
  beacon.use(trackingCors(ctx.config));
  beacon.post('/', express.text({ type: () => true, limit: BODY.limit }), handle);
  // Visitors without the sign-in cookie (nearly all) skip the session lookup.
  ctx.http.mount('/svc/endpoint', beacon, { quiet: true, session: 'lazy' });
}
