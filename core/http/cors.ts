import type { RequestHandler } from 'express';
import type { SvcConfig } from '../config';

export function originAllowed(config: Pick<SvcConfig, 'allowedOrigins'>, origin: string | undefined): origin is string {
  return origin !== undefined && (config.allowedOrigins === '*' || config.allowedOrigins.includes(origin));
}

/**
 * CORS for endpoints that tracked sites call. `sendBeacon` always sends
 * credentials, so an allowed request gets its own Origin back with
 * `Access-Control-Allow-Credentials: true`, never `*`. Answers vary by
 * Origin, so caches keep them apart; a preflight from a public page to a
 * service on a private network is allowed too.
 */
export function trackingCors(config: Pick<SvcConfig, 'allowedOrigins'>): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    const ok = originAllowed(config, origin);
    res.vary('Origin');
    if (ok) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method === 'OPTIONS') {
      if (ok) {
        res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Content-Type');
        res.setHeader('Access-Control-Max-Age', '86400');
        if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
