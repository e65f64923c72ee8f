import path from 'node:path';
import type { SalesApp } from '../app';
import type { Currencies } from '../data/currency';

const VIEW = path.join(__dirname, '..', 'views', 'sales.ejs');
export const SALES_SCRIPT = 'plugins/sales/client/sales.entry.ts';
export const SALES_STYLE = 'plugins/sales/client/sales.entry.css';
/** The tab's path below `{base_url}`. */
export const SALES_TAB_PATH = '/svc-admin/sales';

/**
 * The sales tab (`/svc-admin/sales`, menu id `sales`, shareable): revenue and
 * conversion cards, funnel, top performers, quick wins, subscriptions and the
 * product tables, drawn in the browser from the ecommerce routes.
 */
export function registerSalesTab(app: SalesApp, currencies: Currencies): void {
  const { ctx } = app;
  for (const entry of [SALES_SCRIPT, SALES_STYLE]) ctx.assets.register({ entry });
  ctx.admin.menuItem({ id: 'sales', title: 'Sales', shareable: true, path: SALES_TAB_PATH, capability: 'view_sales_svc_statistics', order: 30 });
  ctx.admin.page({
    path: '/sales',
    capability: 'view_sales_svc_statistics',
    get: async () => ({
      view: VIEW,
      title: 'Sales',
      data: {
        script: await ctx.assets.versionedUrl(SALES_SCRIPT),
        style: await ctx.assets.versionedUrl(SALES_STYLE),
        timezone: app.timezone,
        // The shop panels take the visitor's filters, the subscription panels the subscription's (README "Data routes").
        panelFilters: JSON.stringify({ shop: ctx.statistics.filtersAt('/data/ecommerce/sales'), subscriptions: ctx.statistics.filtersAt('/data/ecommerce/subscriptions') }),
        currencies: await currencies.known(),
        currency: await currencies.pick(undefined, 'shop'),
      },
    }),
  });
}
