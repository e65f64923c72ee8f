/** A client-side goal of `svc.goals.active` (clicks on, or views of, elements matching `selector`). */
export interface SvcGoal {
  ID: number;
  type: string;
  selector: string;
  url: string;
  page_id: number;
}

/** The `svc` global of tracking.md §2.6, written by the embed snippet before the tracker runs. */
export interface SvcGlobal {
  tracking: { isInitialHit: boolean; lastUpdateTimestamp: number; beacon_url: string; ajaxUrl: string };
  options: {
    privacy_level: string;
    cookieless: number;
    pageUrl: string;
    beacon_enabled: number;
    do_not_track: number;
    enable_turbo_mode: number;
    track_url_change: number;
    track_external_links: number;
    cookie_retention_days: number;
    page_id: number;
    debug: number;
    should_load_ecommerce?: unknown;
  };
  goals: { completed: number[]; scriptUrl: string; active: SvcGoal[] };
  cache: {
    uid: string | null;
    fingerprint: string | null;
    isUserAgent: boolean | null;
    isDoNotTrack: boolean | null;
    useCookies: boolean | null;
  };
}

/** The visitor ids a hit carries; `false` when the mode does not use one. */
export interface Ids {
  uid: string | false;
  fingerprint: string | false;
}

declare global {
  interface Window {
    svc?: SvcGlobal;
    /** `{api_base}`, written by the embed snippet beside `svc`. */
    svc_rest_url?: string;
    /** Set by the page before the snippet: `hold` (send nothing until consent) or `cookieless` (no cookie until consent). */
    svc_consent?: string;
  }
  interface Navigator {
    globalPrivacyControl?: boolean;
  }
}
