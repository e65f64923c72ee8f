import { type HotAnswer, type HotRequest, type PluginContext, isPending, type Soon } from '../../../core';
import { LOCATION_HOOKS } from '../collect/hit-headers';
import { decodeBody } from '../collect/payload';
import type { Tracker, TrackResult } from '../collect/tracker';
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
  const answerOf = (transport: Transport, result: TrackResult): HotAnswer => {
    if (transport === 'rest') return { status: 200, json: trackResponse(result, debug) };
    return !result.recorded && debug ? { status: 200, text: result.outcome } : { status: 200 };
  };
  // Only handlers of other plugins on the location hooks may read the request's headers from the context (hit-headers.ts).
  const needsContext = () => LOCATION_HOOKS.some((name) => ctx.hooks.tappedByOthers(name));
  const failed = (err: unknown): never => {
    throw asTrackingError(err, ctx.logger);
  };
  const answer = (transport: Transport) => (req: HotRequest): Soon<HotAnswer> => {
    const payload = decodeBody(transport === 'beacon' && typeof req.body !== 'string' ? '' : req.body);
    if (payload === 'test') return transport === 'rest' ? { status: 200, json: { success: 'test' } } : { status: 200 };
    let result: Soon<TrackResult>;
    try {
      result = tracker.track(payload, req);
    } catch (err) {
      return failed(err);
    }
    if (!isPending(result)) return answerOf(transport, result);
    return result.then((ready) => answerOf(transport, ready), failed);
  };

  ctx.http.hotRoute({
    path: `${ctx.config.restPrefix}/svc/v1/track`,
    limit: LIMIT_BYTES,
    body: 'json',
    types: ['application/json', 'text/plain'],
    cors,
    basicAuth: true,
    needsContext,
    handler: answer('rest'),
  });
  ctx.http.hotRoute({ path: '/svc/endpoint', limit: LIMIT_BYTES, body: 'text', cors, needsContext, handler: answer('beacon') });
}
