import path from 'node:path';
import { badRequest, type DataRequest, ok, type PluginContext } from '../../../core';
import { allowList } from '../statistics/allow';
import { DASHBOARD_STYLE } from '../statistics/dashboard';
import type { Funnel } from './funnel';
import { funnelFigures } from './funnel-query';
import { FunnelStore } from './funnel-store';

const VIEWS = path.join(__dirname, '..', 'views');
const FUNNELS_SCRIPT = 'plugins/tracking/client/funnels.entry.ts';
const FUNNELS_STYLE = 'plugins/tracking/client/funnels.entry.css';

function funnelId(raw: unknown, field: string): number {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) throw badRequest(`${field}: must be a funnel id.`, 'svc_invalid_param', { field });
  return Number(raw);
}

/**
 * Funnels: CRUD per site at `{api_base}/funnels`, each step's visitors at
 * `{api_base}/data/funnel?funnel=<id>` (the period and filters of any data
 * route), the funnels page of the statistics tab and the `funnels` report
 * block. A removed site's funnels go with
 * the site's other rows (their table has `site_id`).
 */
export function registerFunnels(ctx: PluginContext): void {
  const store = new FunnelStore(ctx.db, ctx.clock);
  const stats = ctx.statistics;
  const allow = allowList(stats, { metrics: ['visitors'], defaultMetrics: ['visitors'], groupBy: [], defaultGroupBy: [] });

  const figures = async (siteId: number, req: DataRequest, funnel: Funnel) => {
    const goals = await ctx.db.select<{ ID: number; title: string }>(`SELECT ID, title FROM ${ctx.db.quote(ctx.db.table('goals'))} WHERE site_id = ?`, [siteId]);
    const titles = new Map(goals.map((g) => [Number(g.ID), String(g.title)]));
    const labels = funnel.steps.map((s) => ('goal' in s ? (titles.get(s.goal) ?? `Goal ${s.goal}`) : s.page));
    return funnelFigures(stats, siteId, req, funnel, labels);
  };

  ctx.rest.route({ method: 'GET', path: '/funnels', capability: 'view_svc_statistics', handler: async ({ site }) => ok(await store.list(site.id)) });
  ctx.rest.route({
    method: 'GET',
    path: '/funnels/:id',
    capability: 'view_svc_statistics',
    handler: async ({ site, params }) => ok(await store.get(site.id, funnelId(params.id, 'id'))),
  });
  ctx.rest.route({
    method: 'POST',
    path: '/funnels',
    capability: 'manage_svc_statistics',
    body: { limit: '16kb' },
    handler: async ({ site, body }) => ok(await store.create(site.id, body ?? {})),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    ctx.rest.route({
      method,
      path: '/funnels/:id',
      capability: 'manage_svc_statistics',
      body: { limit: '16kb' },
      handler: async ({ site, params, body }) => ok(await store.update(site.id, funnelId(params.id, 'id'), body ?? {})),
    });
  }
  ctx.rest.route({
    method: 'DELETE',
    path: '/funnels/:id',
    capability: 'manage_svc_statistics',
    handler: async ({ site, params }) => {
      await store.delete(site.id, funnelId(params.id, 'id'));
      return ok({ deleted: true });
    },
  });

  stats.dataType({
    id: 'funnel',
    tab: 'statistics',
    allow,
    async run(req, { siteId, rest }) {
      const funnel = await store.get(siteId, funnelId(rest?.query.funnel, 'funnel'));
      return { funnel, steps: await figures(siteId, req, funnel) };
    },
  });

  // One row per step of each funnel of the site: the rows a report block shows.
  stats.dataType({
    id: 'funnel-steps',
    tab: 'statistics',
    allow,
    async run(req, { siteId }) {
      const rows = [];
      for (const funnel of await store.list(siteId)) {
        for (const step of await figures(siteId, req, funnel)) rows.push({ funnel: funnel.name, ...step });
      }
      return rows;
    },
  });

  for (const entry of [FUNNELS_SCRIPT, FUNNELS_STYLE]) ctx.assets.register({ entry });
  ctx.admin.page({
    path: '/statistics/funnels',
    capability: 'view_svc_statistics',
    get: async (req) => ({
      view: path.join(VIEWS, 'funnels.ejs'),
      title: 'Funnels',
      data: {
        script: await ctx.assets.versionedUrl(FUNNELS_SCRIPT),
        style: await ctx.assets.versionedUrl(DASHBOARD_STYLE),
        funnelStyle: await ctx.assets.versionedUrl(FUNNELS_STYLE),
        timezone: (await ctx.sites.current()).timezone,
        canManage: req.principal.user ? await ctx.sites.can(req.principal.user, await ctx.sites.current(), 'manage_svc_statistics') : false,
      },
    }),
  });

  ctx.hooks.addFilter('svc_email_blocks', (blocks) => [
    ...blocks,
    {
      id: 'funnels',
      title: 'Funnels',
      header: ['Funnel', 'Step', 'Visitors', 'Conversion', 'Drop-off'],
      url: '/svc-admin/statistics/funnels',
      query_args: { source: 'type', id: 'funnel-steps', base: '/data', metrics: [], group_by: [], columns: ['funnel', 'label', 'visitors', 'conversion_rate', 'drop_off'] },
    },
  ]);
}
