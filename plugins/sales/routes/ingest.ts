import { badRequest } from '../../../core';
import type { SalesApp } from '../app';

/** Largest ingestion body: 1,000 orders with their items fit comfortably. */
export const INGEST_BODY_LIMIT = '10mb';

/** `POST {api_base}/ecommerce/events`: the ingestion API (README "Ingestion API"), storing the events on the request's site. */
export function registerIngestRoute(app: SalesApp): void {
  app.ctx.rest.route({
    method: 'POST',
    path: '/ecommerce/events',
    capability: 'manage_svc_statistics',
    body: { limit: INGEST_BODY_LIMIT },
    handler: async ({ body, site }) => {
      const events = body && typeof body === 'object' && !Array.isArray(body) ? (body as { events?: unknown }).events : undefined;
      if (!Array.isArray(events)) throw badRequest('The body must be a JSON object { "events": [...] }.', 'svc_invalid_events', { field: 'events' });
      return app.ingest(events, { source: 'api', siteId: site.id });
    },
  });
}
