import type { HotAnswer, HotRequest, PluginContext } from '../../../core';
import { decodeBody } from '../collect/payload';
import type { Tracker } from '../collect/tracker';
import { trackingCors } from './cors';
import { asTrackingError, trackResponse } from './track-response';

const LIMIT_BYTES = 64 * 1024;

type Transport = 'rest' | 'beacon';

/**
 * The two transports of tracking.md §4 run the same pipeline object:
 * `POST {api_base}/track` (JSON, the payload double-encoded or a plain object)
 * and the beacon `POST {base_url}/svc/endpoint` (raw body). Both are hot
 * routes: the kernel serves the usual anonymous hit before express, and
 * requests carrying a sign-in cookie (excluded roles) or an encoded body
 * through express, with this one answer function.
 */
export function registerTrackRoutes(ctx: PluginContext, tracker: Tracker): void {
  const debug = ctx.config.debug;
  const cors = trackingCors(ctx.config);
  const answer = (transport: Transport) => async (req: HotRequest): Promise<HotAnswer> => {
    const payload = decodeBody(transport === 'beacon' && typeof req.body !== 'string' ? '' : req.body);
    if (payload === 'test') return transport === 'rest' ? { status: 200, json: { success: 'test' } } : { status: 200 };
    try {
      const result = await tracker.track(payload, req);
      if (transport === 'rest') return { status: 200, json: trackResponse(result, debug) };
      return !result.recorded && debug ? { status: 200, text: result.outcome } : { status: 200 };
    } catch (err) {
      throw asTrackingError(err, ctx.logger);
    }
  };

  ctx.http.hotRoute({
    path: `${ctx.config.restPrefix}/svc/v1/track`,
    limit: LIMIT_BYTES,
    body: 'json',
    types: ['application/json', 'text/plain'],
    cors,
    basicAuth: true,
    handler: answer('rest'),
  });
  ctx.http.hotRoute({ path: '/svc/endpoint', limit: LIMIT_BYTES, body: 'text', cors, handler: answer('beacon') });
}
