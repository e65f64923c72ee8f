import { CAPABILITIES, type Capability, type RoleName } from './types';

/** The roles and their capabilities (README, "Admin area, users and the REST API"). The viewer's reach is narrowed further per share token. */
export const ROLES: Readonly<Record<RoleName, readonly Capability[]>> = Object.freeze({
  administrator: CAPABILITIES,
  editor: ['read', 'view_svc_statistics'],
  svc_viewer: ['view_svc_statistics', 'view_sales_svc_statistics'],
});

export const ASSIGNABLE_ROLES: readonly RoleName[] = ['administrator', 'editor'];

export function isRole(value: unknown): value is RoleName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ROLES, value);
}

export function roleHas(role: RoleName, capability: Capability): boolean {
  return ROLES[role].includes(capability);
}
