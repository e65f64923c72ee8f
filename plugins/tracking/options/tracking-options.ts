import { DEFAULT_SITE_ID, type Hooks, type SvcConfig } from '../../../core';
import type { SvcTrackingOptions } from '../../../hooks';
import type { TrackingConfigCache } from '../collect/tracking-config';
import type { GoalStore } from '../goals/goal-store';
import { normaliseGoalUrl } from '../goals/matcher';
import type { TransportStatus } from '../status/transport-status';

export interface PageContext {
  /** URL of the page the script runs on. */
  pageUrl: string;
  /** Post id on singular pages, else 0. */
  pageId: number;
  /** Every client-side goal instead of the page's own (for options served to every page; the script picks the page's). */
  everyPage?: boolean;
  /** The site whose snippet serves the page. */
  siteId: number;
}

/**
 * The browser `svc` object of tracking.md §2.6 for one page, through
 * `svc_cookie_retention_days`, `svc_goals_script_url` and finally
 * `svc_tracking_options`. The active goals are the client-side ones (clicks,
 * views) of this page or of every page.
 */
export class TrackingOptionsBuilder {
  constructor(
    private readonly deps: {
      config: SvcConfig;
      hooks: Hooks;
      settings: TrackingConfigCache;
      goals: GoalStore;
      status: () => Promise<TransportStatus>;
    },
  ) {}

  async build(page: PageContext): Promise<SvcTrackingOptions> {
    const { config, hooks } = this.deps;
    const cfg = await this.deps.settings.get();
    const path = normaliseGoalUrl(page.pageUrl).path;
    const goals = (await this.deps.goals.activeGoals(page.siteId))
      .filter((g) => g.type === 'clicks' || g.type === 'views')
      .filter((g) => page.everyPage || g.url === '*' || g.url === '' || (g.page_id > 0 && g.page_id === page.pageId) || normaliseGoalUrl(g.url).path === path)
      .map((g) => ({ ID: g.ID, title: g.title, type: g.type, selector: g.selector, url: g.url, page_id: g.page_id, conversion_metric: g.conversion_metric }));
    const options: SvcTrackingOptions = {
      tracking: { isInitialHit: true, lastUpdateTimestamp: 0, beacon_url: `${config.baseUrl}/svc/endpoint`, ajaxUrl: `${config.baseUrl}/svc/ajax` },
      options: {
        privacy_level: cfg.privacyLevel,
        cookieless: cfg.privacyLevel === 'cookie' ? 0 : 1,
        pageUrl: page.pageUrl,
        beacon_enabled: (await this.deps.status()).status === 'beacon' ? 1 : 0,
        do_not_track: cfg.doNotTrack ? 1 : 0,
        enable_turbo_mode: cfg.turboMode ? 1 : 0,
        track_url_change: cfg.trackUrlChange ? 1 : 0,
        track_external_links: cfg.trackExternalLinks && config.pro ? 1 : 0,
        cookie_retention_days: Number(await hooks.applyFilters('svc_cookie_retention_days', 30)) || 30,
        page_id: page.pageId,
        debug: config.debug ? 1 : 0,
      },
      goals: { completed: [], scriptUrl: String(await hooks.applyFilters('svc_goals_script_url', `${config.baseUrl}/svc/js/svc-goals.min.js`)), active: goals },
      cache: { uid: null, fingerprint: null, isUserAgent: null, isDoNotTrack: null, useCookies: null },
    };
    if (page.siteId !== DEFAULT_SITE_ID) options.site = page.siteId;
    return hooks.applyFilters('svc_tracking_options', options);
  }
}
