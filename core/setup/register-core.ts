import { registerAccountPage } from '../admin/account-page';
import { registerCoreMenu } from '../admin/menu';
import { registerPluginsPage } from '../admin/plugins-page';
import { registerSettingsPage } from '../admin/settings-page';
import { registerSitesPage } from '../admin/sites-page';
import { registerUsersPage } from '../admin/users-page';
import type { Kernel } from '../kernel';
import { registerMaintenance } from '../scheduler/maintenance';
import { registerAppPasswordRoutes } from './app-password-routes';
import { registerCoreRoutes } from './core-routes';
import { registerSiteRoutes } from './site-routes';

/** The script every admin page loads. */
export const ADMIN_SCRIPT = 'core/assets/client/admin.entry.ts';

/** Everything the kernel itself offers before plugins load: routes, admin shell pages, menu entries and maintenance. */
export function registerCore(kernel: Kernel): void {
  kernel.assets.register({ entry: ADMIN_SCRIPT });
  kernel.admin.layoutScript = () => kernel.assets.versionedUrl(ADMIN_SCRIPT);
  registerCoreRoutes(kernel);
  registerAppPasswordRoutes(kernel.rest, kernel.appPasswords);
  registerSiteRoutes(kernel.rest, kernel.sites);
  registerCoreMenu(kernel.hooks);
  registerSettingsPage(kernel.admin, kernel.settings);
  const { users, accounts, appPasswords, loginLimiter: limiter } = kernel;
  registerAccountPage(kernel.admin, { users, accounts, appPasswords, limiter, timezone: kernel.config.timezone });
  registerUsersPage(kernel.admin, { users, accounts, sites: kernel.sites });
  registerSitesPage(kernel.admin, kernel.sites, kernel.config.timezone);
  registerPluginsPage(kernel.admin, () => kernel.plugins, kernel.config.license);
  registerMaintenance(kernel);
}
