import type { RestRouter } from '../http/rest-router';
import type { Sites } from '../sites/sites';

/** `GET {api_base}/sites`: the sites the caller may see, for clients that offer a choice of site. */
export function registerSiteRoutes(rest: RestRouter, sites: Sites): void {
  rest.add('core', {
    method: 'GET',
    path: '/sites',
    capability: 'read',
    handler: ({ principal }) => sites.visibleTo(principal.user!),
  });
}
