import type { IncomingHttpHeaders } from 'node:http';
import express, { Router } from 'express';
import { ANONYMOUS, badRequest, type FastPostAnswer, type PluginContext, type Principal, trackingCors } from '../../../core';
import { decodeBody } from '../collect/payload';
import type { Tracker } from '../collect/tracker';
import { asTrackingError, trackResponse } from './track-response';

const LIMIT_BYTES = 64 * 1024;
const BODY = { limit: '64kb', types: ['application/json', 'text/plain'] };

type Transport = 'rest' | 'beacon';

interface HitSource {
  headers: IncomingHttpHeaders;
  remoteAddress: string | undefined;
  principal: Principal;
}

/**
 * The two transports of tracking.md §4 run the same pipeline object:
 * `POST {api_base}/track` (JSON, the payload double-encoded or a plain object)
 * and the beacon `POST {base_url}/svc/endpoint` (raw body). Each is served
 * twice with one answer function: on the kernel's fast path for the usual
 * anonymous hit, and through express for requests carrying a sign-in cookie
 * (excluded roles) or an encoded body.
 */
export function registerTrackRoutes(ctx: PluginContext, tracker: Tracker): void {
  const debug = ctx.config.debug;
  const answer = async (body: unknown, source: HitSource, transport: Transport): Promise<FastPostAnswer> => {
    const payload = decodeBody(body);
    if (payload === 'test') return transport === 'rest' ? { status: 200, json: { success: 'test' } } : { status: 200 };
    try {
      const result = await tracker.track(payload, source);
      if (transport === 'rest') return { status: 200, json: trackResponse(result, debug) };
      return !result.recorded && debug ? { status: 200, text: result.outcome } : { status: 200 };
    } catch (err) {
      throw asTrackingError(err, ctx.logger);
    }
  };

  ctx.rest.route({
    method: 'POST',
    path: '/track',
    capability: null,
    body: BODY,
    before: [trackingCors(ctx.config)],
    handler: async (req) =>
      (await answer(req.body, { headers: req.headers, remoteAddress: req.raw.socket.remoteAddress, principal: req.principal }, 'rest')).json,
  });

  const beacon = Router();
  beacon.use(trackingCors(ctx.config));
  beacon.post('/', express.text({ type: () => true, limit: BODY.limit }), async (req, res) => {
    const source = { headers: req.headers, remoteAddress: req.socket.remoteAddress, principal: req.principal ?? ANONYMOUS };
    const reply = await answer(typeof req.body === 'string' ? req.body : '', source, 'beacon');
    res.status(reply.status);
    if (reply.text !== undefined) res.type('text/plain').send(reply.text);
    else res.end();
  });
  ctx.http.mount('/svc/endpoint', beacon, { quiet: true, session: 'lazy' });

  const paths: Record<Transport, string> = { rest: `${ctx.config.restPrefix}/svc/v1/track`, beacon: '/svc/endpoint' };
  for (const transport of ['rest', 'beacon'] as const) {
    ctx.http.fastPost({
      path: paths[transport],
      limit: LIMIT_BYTES,
      cors: true,
      types: transport === 'rest' ? BODY.types : undefined,
      handler: (req) =>
        answer(transport === 'rest' ? parseJson(req.body) : req.body, { headers: req.headers, remoteAddress: req.remoteAddress, principal: ANONYMOUS }, transport),
    });
  }
}

/** The REST body as the express JSON parser reads it, so both paths peel the same layers. */
function parseJson(body: string): unknown {
  if (body.trim() === '') return {};
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON.', 'svc_invalid_json');
  }
}
