import type { SvcMenuItem } from '../../hooks';
import { type HookRegistry, Priority } from '../hooks/registry';

/** The kernel's own entries of the admin menu; plugins add theirs on the same filter. */
export const CORE_MENU: readonly SvcMenuItem[] = Object.freeze([
  { id: 'settings', title: 'Settings', shareable: false, path: '/svc-admin/settings', capability: 'manage_options', order: 80 },
  { id: 'plugins', title: 'Plugins', shareable: false, path: '/svc-admin/plugins', capability: 'manage_options', order: 85 },
  { id: 'sites', title: 'Sites', shareable: false, path: '/svc-admin/sites', capability: 'manage_options', order: 87 },
  { id: 'users', title: 'Users', shareable: false, path: '/svc-admin/users', capability: 'manage_options', order: 88 },
  { id: 'account', title: 'Account', shareable: false, path: '/svc-admin/account', capability: 'read', order: 90 },
]);

export function registerCoreMenu(hooks: HookRegistry): void {
  hooks.addFilter('svc_menu', (menu) => [...menu, ...CORE_MENU.map((item) => ({ ...item }))], { priority: Priority.EARLY });
}
