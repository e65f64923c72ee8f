/**
 * Hooks the tracking plugin declares beyond the spec's (module augmentation of
 * the kernel's typed maps; registered with `declareAction` in register.ts).
 */
import type { HitRequest, TrackResult } from './collect/tracker';
import type { HookGoals } from './goals/hook-goals';
import type { BlockGoalAttributes } from './goals/block-goals';
import type { SearchQuery } from './search/register';
import type { SvcStatistic, SvcTrackingOptions } from '../../hooks';
import type { PageContext } from './options/tracking-options';
import type { TransportStatus } from './status/transport-status';

/** One demo visit, for plugins that add data of their own to it (orders...). */
export interface SvcDemoVisit {
  uid: string;
  /** Unix time of the page view. */
  time: number;
  url: string;
  /** Session id (`svc_sessions.ID`). */
  session: number;
}

declare module '../../hooks' {
  interface SvcFilters {
    /**
     * During `svc demo --remove`, after the tracking plugin deleted its demo
     * rows: each plugin deletes the demo rows it added (marked when it wrote
     * them) and appends a line saying what it removed.
     */
    svc_demo_removal: [report: string[]];
  }
  interface SvcActions {
    /** After `svc demo` generated traffic: every visit it recorded. */
    svc_demo_generated: [visits: SvcDemoVisit[]];
    /** Completes the active goals of type `hook` named `hook_name` (see the `tracking` service's handleHook). */
    svc_goal_hook: [hook_name: string, uid: string];
  }
}

/** What the tracking plugin offers other plugins (`ctx.services.get('tracking')`). */
export interface TrackingService {
  /**
   * Runs a decoded hit payload through the pipeline, as the endpoints do (for
   * server-side integrations); `time` overrides the clock. Throws a 400
   * SvcError when the page URL is unusable.
   */
  track(payload: Record<string, unknown>, request: HitRequest, time?: number): Promise<TrackResult>;
  /** `handle_hook(hook_name, uid)` of tracking.md §4.1. */
  handleHook: HookGoals['handleHook'];
  /** `capture_search_and_posts(posts, query)`: returns `posts` unmodified. */
  captureSearchAndPosts<T>(posts: T[], query: SearchQuery): Promise<T[]>;
  /** `link_pending_search(statistic_id, statistic)`. */
  linkPendingSearch(statisticId: number, statistic: SvcStatistic): Promise<unknown>;
  /** Adds `data-svc-goal` to a goal block's first tag. */
  renderBlockGoal(html: string, attributes: BlockGoalAttributes): string;
  /** The transport status of tracking.md §2.7. */
  transportStatus(): Promise<TransportStatus>;
  /** The browser `svc` options object of tracking.md §2.6 for a page. */
  trackingOptions(page: PageContext): Promise<SvcTrackingOptions>;
}

declare module '../../core/plugins/services' {
  interface SvcServices {
    tracking: TrackingService;
  }
}
