import { DEFAULT_SITE_ID, insertIfAbsent, type PluginContext } from '../../../core';
import type { TrackingConfigCache } from '../collect/tracking-config';
import { LinkLookup } from './link-lookup';
import { LinkScraper } from './link-scraper';
import { normaliseLinkUrl } from './normalize';

/**
 * Outbound link clicks (paid tiers record them, tracking.md §3.3 step 10):
 * the clicked URL, normalised, is looked up in the external-links table and
 * joined to the pageview, at most once per pageview. The lookup is filled by
 * the daily scraper.
 */
export async function registerExternalLinks(ctx: PluginContext, config: TrackingConfigCache): Promise<LinkScraper> {
  const lookup = new LinkLookup(ctx.db, ctx.options);
  await lookup.init();
  const scraper = new LinkScraper({ db: ctx.db, clock: ctx.clock, logger: ctx.logger, config: ctx.config, options: ctx.options, lookup });

  /** The site of a pageview: its `track_external_links` decides whether the click is recorded. */
  const siteOf = async (statisticId: number): Promise<number> => {
    const [row] = await ctx.db.select<{ site_id: number | string }>(`SELECT site_id FROM ${ctx.db.quote(ctx.db.table('statistics'))} WHERE ID = ?`, [statisticId]);
    return row ? Number(row.site_id) : DEFAULT_SITE_ID;
  };

  // The free tier fires the action for every hit but records nothing, so it does not tap it.
  if (ctx.config.pro) {
    ctx.hooks.addAction('svc_track_external_link', async (statisticId, url) => {
      if (!url || !(statisticId > 0)) return;
      if (!(await config.get(await siteOf(statisticId))).trackExternalLinks) return;
      const normalised = normaliseLinkUrl(url);
      const linkId = normalised ? await lookup.idOf(normalised) : 0;
      if (linkId === 0) return;
      await insertIfAbsent(ctx.db, ctx.db.table('statistics_external_links'), { statistic_id: statisticId, external_link_id: linkId, time: ctx.clock.unix() });
    });
  }
  ctx.hooks.addAction('svc_daily', async () => {
    // The scraper reads the default site's pages, so that site's setting decides.
    if (ctx.config.pro && (await config.get()).trackExternalLinks) await scraper.run();
  });
  return scraper;
}
