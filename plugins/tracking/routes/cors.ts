import type { CorsPolicy, SvcConfig } from '../../../core';

/**
 * CORS of the endpoints tracked sites call (`SVC_ALLOWED_ORIGINS`, every
 * origin by default). `sendBeacon` always sends credentials, so an allowed
 * request gets its own Origin back with credentials allowed; a preflight from
 * a public page to a service on a private network is allowed too.
 */
export function trackingCors(config: Pick<SvcConfig, 'allowedOrigins'>): CorsPolicy {
  const origins = config.allowedOrigins;
  return {
    allows: (origin) => origins === '*' || origins.includes(origin),
    credentials: true,
    methods: 'POST, OPTIONS',
    privateNetwork: true,
    maxAge: 86_400,
  };
}
