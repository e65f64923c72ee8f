import { unauthorized } from '../errors';
import type { Kernel } from '../kernel';

/** Kernel routes: the REST nonce and the admin landing page. */
export function registerCoreRoutes(kernel: Kernel): void {
  kernel.rest.add('core', {
    method: 'GET',
    path: '/nonce',
    capability: null,
    handler: ({ principal }) => {
      if (!principal.user) throw unauthorized();
      return { nonce: kernel.nonces.create(principal, 'svc_nonce') };
    },
  });

  kernel.admin.page({
    path: '/',
    capability: 'view_svc_statistics',
    get: async (req) => {
      const [first] = await kernel.admin.menu(req.principal, req.raw.site);
      return first ? { redirect: `${kernel.config.basePath}${first.path}` } : { redirect: kernel.admin.url('/settings') };
    },
  });
}
