import { DEFAULT_SITE_ID, ok, type PluginContext } from '../../../core';
import type { DropLog, RecentDrop } from '../collect/drop-log';

/** Rows of the recent-drops list. */
export const RECENT_DROPS = 10;

export interface Onboarding {
  /** The first pageview ever recorded, or null while the site waits for one. */
  first_hit: { time: number; page_url: string } | null;
  /** The `<script>` line to copy into the site; null in headless mode. */
  snippet: string | null;
  /** Where a headless site sends its hits. */
  track_url: string;
  /** Hits that arrived lately but were not counted, newest first. */
  drops: RecentDrop[];
}

/**
 * `GET {api_base}/tracking/onboarding` (`view_svc_statistics`): what the
 * statistics tab shows a site that has not counted a pageview yet.
 */
export function registerOnboardingRoute(ctx: PluginContext, drops: DropLog): void {
  const statistics = ctx.db.quote(ctx.db.table('statistics'));
  ctx.rest.route({
    method: 'GET',
    path: '/tracking/onboarding',
    capability: 'view_svc_statistics',
    handler: async ({ site }) => {
      const [first] = await ctx.db.select<{ time: number; page_url: string }>(`SELECT time, page_url FROM ${statistics} WHERE site_id = ? ORDER BY ID LIMIT 1`, [site.id]);
      const answer: Onboarding = {
        first_hit: first ? { time: Number(first.time), page_url: first.page_url } : null,
        snippet: (await ctx.services.get('trackerScripts')?.snippet(site.id)) ?? null,
        track_url: `${ctx.config.apiBase}/track`,
        // Hits of no known site are the operators' to see: they are listed with the first site.
        drops: await drops.recent(site.id, RECENT_DROPS, site.id === DEFAULT_SITE_ID),
      };
      return ok(answer);
    },
  });
}
