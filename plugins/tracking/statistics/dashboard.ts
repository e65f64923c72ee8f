import path from 'node:path';
import type { PluginContext } from '../../../core';

const VIEWS = path.join(__dirname, '..', 'views');
export const DASHBOARD_SCRIPT = 'plugins/tracking/client/dashboard.entry.ts';
export const DASHBOARD_STYLE = 'core/assets/client/dashboard.entry.css';
export const GOALS_SCRIPT = 'plugins/tracking/client/goals.entry.ts';

/** The statistics tab page, its goals page and the menu item (`shareable`, reports §5 rule 8). */
export function registerDashboard(ctx: PluginContext): void {
  for (const entry of [DASHBOARD_SCRIPT, DASHBOARD_STYLE, GOALS_SCRIPT]) ctx.assets.register({ entry });
  ctx.admin.menuItem({ id: 'statistics', title: 'Statistics', shareable: true, path: '/svc-admin/statistics', capability: 'view_svc_statistics', order: 10 });
  ctx.admin.page({
    path: '/statistics',
    capability: 'view_svc_statistics',
    get: async (req) => ({
      view: path.join(VIEWS, 'statistics.ejs'),
      title: 'Statistics',
      data: {
        script: await ctx.assets.versionedUrl(DASHBOARD_SCRIPT),
        style: await ctx.assets.versionedUrl(DASHBOARD_STYLE),
        timezone: ctx.statistics.timezone,
        panelFilters: JSON.stringify({ default: ctx.statistics.filtersAt('/data/compare') }),
        canManageGoals: req.principal.user ? await ctx.auth.users.can(req.principal.user, 'manage_svc_statistics') : false,
      },
    }),
  });
  ctx.admin.page({
    path: '/statistics/goals',
    capability: 'manage_svc_statistics',
    get: async () => ({
      view: path.join(VIEWS, 'goals.ejs'),
      title: 'Goals',
      data: { script: await ctx.assets.versionedUrl(GOALS_SCRIPT), style: await ctx.assets.versionedUrl(DASHBOARD_STYLE) },
    }),
  });
}
