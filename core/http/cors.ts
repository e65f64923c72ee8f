import type { RequestHandler } from 'express';
import type { SvcConfig } from '../config';

/**
 * CORS for endpoints that tracked sites call. `sendBeacon` always sends
 * credentials, so an allowed request gets its own Origin back with
 * `Access-Control-Allow-Credentials: true`, never `*`.
 */
export function trackingCors(config: Pick<SvcConfig, 'allowedOrigins'>): RequestHandler {
  const allowed = (origin: string) => config.allowedOrigins === '*' || config.allowedOrigins.includes(origin);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin && allowed(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      if (origin && allowed(origin)) {
        res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Content-Type');
        res.setHeader('Access-Control-Max-Age', '86400');
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
