import type { Capability } from '../auth/types';
import type { SiteRole } from './types';

/** What a per-site role may do on its site: a manager also manages goals, reports, share links and the site's settings. */
export const SITE_ROLE_CAPABILITIES: Readonly<Record<SiteRole, readonly Capability[]>> = Object.freeze({
  manager: ['read', 'view_svc_statistics', 'view_sales_svc_statistics', 'manage_svc_statistics'],
  viewer: ['read', 'view_svc_statistics'],
});

export function siteRoleHas(role: SiteRole, capability: Capability): boolean {
  return SITE_ROLE_CAPABILITIES[role].includes(capability);
}
