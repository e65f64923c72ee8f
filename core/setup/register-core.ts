import { registerAccountPage } from '../admin/account-page';
import { registerCoreMenu } from '../admin/menu';
import { registerPluginsPage } from '../admin/plugins-page';
import { registerSettingsPage } from '../admin/settings-page';
import type { Kernel } from '../kernel';
import { registerMaintenance } from '../scheduler/maintenance';
import { registerAppPasswordRoutes } from './app-password-routes';
import { registerCoreRoutes } from './core-routes';

/** Everything the kernel itself offers before plugins load: routes, admin shell pages, menu entries and maintenance. */
export function registerCore(kernel: Kernel): void {
  registerCoreRoutes(kernel);
  registerAppPasswordRoutes(kernel.rest, kernel.appPasswords);
  registerCoreMenu(kernel.hooks);
  registerSettingsPage(kernel.admin, kernel.settings);
  registerAccountPage(kernel.admin, kernel.appPasswords, kernel.config.timezone);
  registerPluginsPage(kernel.admin, () => kernel.plugins, kernel.config.license);
  registerMaintenance(kernel);
}
