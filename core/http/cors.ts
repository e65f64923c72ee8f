import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/** Who may call a route from another page, answered alike by every stack that serves the route. */
export interface CorsPolicy {
  /** Whether a page from `origin` may read the answer. */
  allows(origin: string): boolean;
  /** Answer an allowed origin with itself and `Access-Control-Allow-Credentials: true` (never `*`). */
  credentials: boolean;
  /** What a preflight allows, e.g. `POST, OPTIONS`. */
  methods: string;
  /** Allow preflights from public pages to a service on a private network. */
  privateNetwork: boolean;
  /** Seconds a browser may keep a preflight's answer. */
  maxAge: number;
}

/** The CORS headers of an answer (not a preflight); true when the origin is allowed. Answers vary by Origin, so caches keep them apart. */
export function applyCors(policy: CorsPolicy, headers: IncomingHttpHeaders, res: ServerResponse): boolean {
  const vary = res.getHeader('Vary');
  res.setHeader('Vary', vary ? `${String(vary)}, Origin` : 'Origin');
  const origin = headers.origin;
  if (origin === undefined || !policy.allows(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  if (policy.credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
  return true;
}

/** The policy as express middleware: the headers on every answer, and preflights (OPTIONS) answered 204 here. */
export function corsMiddleware(policy: CorsPolicy): RequestHandler {
  return (req, res, next) => {
    const allowed = applyCors(policy, req.headers, res);
    if (req.method !== 'OPTIONS') return next();
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', policy.methods);
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Content-Type');
      res.setHeader('Access-Control-Max-Age', String(policy.maxAge));
      if (policy.privateNetwork && req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true');
    }
    res.status(204).end();
  };
}
