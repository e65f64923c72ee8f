import path from 'node:path';
import { definePlugin, RETENTION_SETTING, retentionCutoff, soonThen } from '../../core';
import { campaignsTable } from './migrations/0001-campaigns';
import { CampaignStore } from './services/campaign-store';
import { registerSourcesData } from './services/data';
import { registerCampaignDimensions } from './services/dimensions';

const VIEWS = path.join(__dirname, 'views');
const SCRIPT = 'plugins/sources/client/sources.entry.ts';
const STYLE = 'core/assets/client/dashboard.entry.css';

/** Creator tier: where visitors come from (channels, referrer domains, UTM campaigns, countries, regions, cities). */
export default definePlugin({
  name: 'sources',
  tier: 'creator',
  migrations: [campaignsTable],
  register(ctx) {
    const campaigns = new CampaignStore(ctx.db, ctx.options);
    ctx.services.provide('campaigns', campaigns);
    registerCampaignDimensions(ctx);
    registerSourcesData(ctx);

    ctx.hooks.addAction('svc_after_create_statistic', (id, statistic) => soonThen(campaigns.record(id, statistic.time, statistic.parameters), () => undefined));
    ctx.hooks.addAction('svc_every_hour', async () => void (await campaigns.catchUp()));
    ctx.sites.onRemove(async (siteId) => void (await campaigns.removeSite(siteId)));
    ctx.hooks.addAction('svc_daily', async () => {
      const days = await ctx.settings.get<number>(RETENTION_SETTING);
      if (days > 0) await campaigns.prune(retentionCutoff(ctx.clock.unix(), ctx.statistics.timezone, days));
    });

    for (const entry of [SCRIPT, STYLE]) ctx.assets.register({ entry });
    ctx.admin.menuItem({ id: 'sources', title: 'Sources', shareable: true, path: '/svc-admin/sources', capability: 'view_svc_statistics', order: 20 });
    ctx.admin.page({
      path: '/sources',
      capability: 'view_svc_statistics',
      get: async () => ({
        view: path.join(VIEWS, 'sources.ejs'),
        title: 'Sources',
        data: {
          script: await ctx.assets.versionedUrl(SCRIPT),
          style: await ctx.assets.versionedUrl(STYLE),
          timezone: ctx.statistics.timezone,
          panelFilters: JSON.stringify({ default: ctx.statistics.filtersAt('/data/channels') }),
        },
      }),
    });
  },
});
