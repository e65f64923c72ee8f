import path from 'node:path';
import type { License } from '../config';
import type { PluginStatus } from '../plugins/loader';
import { VIEWS_DIR } from '../paths';
import type { AdminService } from './admin';

const VIEW = path.join(VIEWS_DIR, 'plugins.ejs');

/** `/svc-admin/plugins`: every plugin found, with its state and the reason when it is not loaded. */
export function registerPluginsPage(admin: AdminService, plugins: () => readonly PluginStatus[], license: License): void {
  admin.page({
    path: '/plugins',
    capability: 'manage_options',
    get: () => ({
      view: VIEW,
      title: 'Plugins',
      data: { plugins: [...plugins()].sort((a, b) => a.name.localeCompare(b.name)), license },
    }),
  });
}
