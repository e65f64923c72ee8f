import path from 'node:path';
import type { PluginContext } from '../../../core';

const VIEWS = path.join(__dirname, '..', 'views');
export const DASHBOARD_SCRIPT = 'plugins/tracking/client/dashboard.entry.ts';
export const DASHBOARD_STYLE = 'core/assets/client/dashboard.entry.css';
export const GOALS_SCRIPT = 'plugins/tracking/client/goals.entry.ts';
export const LIVE_SCRIPT = 'plugins/tracking/client/live.entry.ts';
export const LIVE_STYLE = 'plugins/tracking/client/live.entry.css';

/** The statistics tab page, its live and goals pages and the menu item (`shareable`, reports §5 rule 8). */
export function registerDashboard(ctx: PluginContext): void {
  for (const entry of [DASHBOARD_SCRIPT, DASHBOARD_STYLE, GOALS_SCRIPT, LIVE_SCRIPT, LIVE_STYLE]) ctx.assets.register({ entry });
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
        timezone: (await ctx.sites.current()).timezone,
        panelFilters: JSON.stringify({ default: ctx.statistics.filtersAt('/data/compare') }),
        canManageGoals: req.principal.user ? await ctx.auth.users.can(req.principal.user, 'manage_svc_statistics') : false,
        // A share link's viewer (no `read`) stays on the shared tab.
        canOpenLive: req.principal.user ? await ctx.auth.users.can(req.principal.user, 'read') : false,
      },
    }),
  });
  ctx.admin.page({
    path: '/statistics/live',
    capability: 'view_svc_statistics',
    get: async () => ({
      view: path.join(VIEWS, 'live.ejs'),
      title: 'Live',
      data: {
        script: await ctx.assets.versionedUrl(LIVE_SCRIPT),
        style: await ctx.assets.versionedUrl(DASHBOARD_STYLE),
        liveStyle: await ctx.assets.versionedUrl(LIVE_STYLE),
        timezone: (await ctx.sites.current()).timezone,
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
