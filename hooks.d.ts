/**
 * Every documented `svc_*` filter and action, with its arguments.
 *
 * A filter's first argument is the value being filtered; every handler returns
 * a replacement of the same type. An action's handlers return nothing.
 * The spec sections named in each comment are in `../shared/spec/`.
 *
 * Plugins declare extra hooks by augmenting `SvcFilters` / `SvcActions`
 * (`declare module '<path>/hooks' { interface SvcFilters { my_hook: [...] } }`)
 * and calling `ctx.hooks.declareFilter` / `declareAction` with the argument names.
 */
import type { SvcError } from './core/errors';
import type { RestRequest } from './core/http/rest-types';
import type { Capability, SvcUser } from './core/auth/types';

// ---------------------------------------------------------------- tracking

/** The hit type (tracking.md §3.1). */
export type SvcHitType = 'create' | 'update';

/** The hit after sanitising (tracking.md §2.1, §3.3 step 2), as passed to `svc_before_track_hit`. */
export interface SvcSanitizedHit {
  /** Page URL without query string and fragment. */
  url: string;
  /** Host of the page URL, lowercased (with the port when not the default). */
  host: string;
  /** Path of the page URL: the pageview's `page_url`. */
  path: string;
  /** Query string of the page URL, without the leading `?`. */
  parameters: string;
  fragment: string;
  /** External referrer URL; '' for none or for the page's own host. */
  referrer: string;
  /** Visitor id after identification (§3.4). */
  uid: string;
  /** '' in private mode. */
  fingerprint: string;
  user_agent: string;
  time_on_page: number;
  completed_goals: number[];
  page_id: number;
  page_type: string;
  /** Plain-text search term, kept apart from statistic columns. */
  search_term: string;
  /** Clicked outbound http(s) URL, '' when none. */
  external_link_url: string;
  should_load_ecommerce: boolean;
  /** Lookup ids; all 0 when the hit had no user agent (a heartbeat). */
  browser_id: number;
  browser_version_id: number;
  platform_id: number;
  device_id: number;
  ip: string;
  /** Unix time of the hit. */
  time: number;
  /** Set by location enrichment on a session's first hit (locations.city_code). */
  city_code?: number;
  country_code?: string;
}

/** One pageview row: statistic-table columns only (tracking.md §2.2, v3.3.0). */
export interface SvcStatistic {
  ID?: number;
  page_url: string;
  parameters: string;
  fragment: string;
  page_id: number;
  page_type: string;
  time: number;
  uid: string;
  time_on_page: number;
  session_id: number;
  /** Present on `svc_after_create_statistic` when the hit carried a search term. */
  search_term?: string;
  /** Present on `svc_after_create_statistic` for a hit of a site other than the default one: that site's id. */
  site_id?: number;
}

/** A resolved location (tracking.md §8.1). */
export interface SvcLocation {
  country_code: string;
  continent_code?: string;
  region?: string;
  city?: string;
  /** Positive geoname id for a city, negative placeholder per country. */
  city_code?: number;
}

/** The browser `svc` global (tracking.md §2.6). */
export interface SvcTrackingOptions {
  tracking: { isInitialHit: boolean; lastUpdateTimestamp: number; beacon_url: string; ajaxUrl: string };
  options: {
    privacy_level: 'cookie' | 'private_mode' | 'fingerprint';
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
    [extra: string]: unknown;
  };
  goals: { completed: number[]; scriptUrl: string; active: unknown[] };
  cache: {
    uid: string | null;
    fingerprint: string | null;
    isUserAgent: boolean | null;
    isDoNotTrack: boolean | null;
    useCookies: boolean | null;
  };
  /** The site of a snippet other than the default site's; the tracker sends it with every hit as `site`. */
  site?: number;
  [extra: string]: unknown;
}

// ---------------------------------------------------------------- reports and sharing

/** An entry of the admin menu (reports-and-share-links.md §5 rule 8). */
export interface SvcMenuItem {
  id: string;
  title: string;
  /** May appear in a share-link session when its id is in the token's shared tabs. */
  shareable: boolean;
  /** Link target below `{base_url}`, e.g. `/svc-admin/statistics`. */
  path: string;
  capability?: Capability;
  /** Lower comes first. */
  order?: number;
}

/** Permissions stored on a share token (§2.5). */
export interface SvcSharePermissions {
  can_change_date: boolean;
  can_filter: boolean;
}

/** Permissions of the current share link (§5 rule 7); empty without a valid token. */
export type SvcLinkPermissions =
  | Record<string, never>
  | (SvcSharePermissions & { is_shareable_link_viewer: boolean });

/** A content block definition offered to reports (`svc_email_blocks`, §6). */
export interface SvcEmailBlockDefinition {
  id: string;
  title: string;
  header: string[];
  url: string;
  query_args: Record<string, unknown>;
}

/** A block built for rendering (`svc_mail_reports_blocks`, §6). */
export interface SvcMailReportBlock {
  id: string;
  title: string;
  subtitle: string;
  header: string[];
  rows: Array<Array<string | number>>;
  url: string;
  content?: string;
  comment_title?: string;
  comment_text?: string;
}

/** The query object a report block runs (`svc_mail_report_results`). */
export interface SvcQueryData {
  /** Explicit query id, e.g. `report_block_pages` (§1 rule 14). */
  id: string;
  date_start: number;
  date_end: number;
  metrics: string[];
  group_by: string[];
  filters: Record<string, string>;
  limit: number;
}

export type SvcQueryRow = Record<string, string | number | null>;

// ---------------------------------------------------------------- maps

/** Filters named in the three spec documents and the kernel's own. */
export interface SvcSpecFilters {
  // tracking.md §6
  /** After sanitising, before session handling and writes; location enrichment taps it. Returns the hit. */
  svc_before_track_hit: [sanitized_data: SvcSanitizedHit, hit_type: SvcHitType, previous_hit: SvcStatistic | Record<string, never>];
  /** Name of the geo reader used at hit time; the free default reads a country database. */
  svc_geoip_handler: [handler: string];
  /** Whether location lookup runs at all. */
  svc_geo_ip_enabled: [enabled: boolean];
  /** The location resolved for an IP, before it is stored. */
  svc_location_data: [location: SvcLocation | null, ip: string];
  /** Location used for loopback and private addresses (none by default). */
  svc_localhost_location_data: [location: SvcLocation | null, ip: string];
  /** The browser `svc` options object. */
  svc_tracking_options: [options: SvcTrackingOptions];
  /** Tracking cookie lifetime in days (30). */
  svc_cookie_retention_days: [days: number];
  /** URL of the goals script. */
  svc_goals_script_url: [url: string];
  /** Script handles the tracker depends on. */
  svc_script_dependencies: [deps: string[]];
  /** Blocked IPs and CIDR ranges. */
  svc_ip_blocklist: [blocked_ips: string[]];
  /** The visitor IP (may be empty), before the blocklist check. */
  svc_visitor_ip: [ip: string];
  /** Whether tracker file names are obfuscated (ghost mode). */
  svc_obfuscate_filename: [enabled: boolean];
  /** Role slugs excluded from tracking. */
  svc_roles_excluded_from_tracking: [roles: string[]];
  /** A 2-letter country code short-circuits header detection and database lookup. */
  svc_country_code_for_ip: [country_code: string, ip: string];
  /** Request header names (server-variable style) carrying an edge country; empty disables. */
  svc_cdn_country_headers: [headers: string[]];
  /** Longest search token without a space (30). */
  svc_search_max_unspaced_length: [length: number];
  /** Seconds within which a longer typed search replaces a shorter one (120). */
  svc_search_merge_window: [seconds: number];
  /** Unicode script names allowed in search terms. */
  svc_search_allowed_scripts: [scripts: string[], locales: string[]];
  /** Regexes (with delimiters) that mark a search term as an injection probe. */
  svc_search_injection_patterns: [patterns: string[]];

  // reports-and-share-links.md §6
  /** Content blocks available to reports. */
  svc_email_blocks: [blocks: SvcEmailBlockDefinition[]];
  /** Rows per block in a classic e-mail (5). */
  svc_mail_report_limit: [limit: number];
  /** Raw rows of one block query. */
  svc_mail_report_results: [raw_results: SvcQueryRow[], qd: SvcQueryData, start_date: number, end_date: number];
  /** Built blocks keyed by block id, before rendering. */
  svc_mail_reports_blocks: [blocks: Record<string, SvcMailReportBlock>, date_start: number, date_end: number];
  /** Path of the main e-mail template. */
  svc_email_template: [path: string];
  /** Path of the block template. */
  svc_email_block_template: [path: string];
  /** Path of the read-more template. */
  svc_email_readmore_template: [path: string];
  /** Delivery-log retention in days (30). */
  svc_report_log_delete_threshold: [days: number];
  /** Valid report format slugs. */
  svc_report_formats: [formats: string[]];
  /** Permissions stored on a new token, from the defaults and the raw request values. */
  svc_share_permissions: [defaults: SvcSharePermissions, raw_permissions: Record<string, unknown>];
  /** Permissions of the link in the current request. */
  svc_share_link_permissions: [permissions: SvcLinkPermissions];
  /** Whether `nonce` is valid for `action`. */
  svc_verify_nonce: [nonce_is_valid: boolean, nonce: string | null, action: string];
  /** Admin menu items. */
  svc_menu: [menu: SvcMenuItem[]];

  // ecommerce.md §6
  /** Requests allowed per window for an ability (30). */
  svc_abilities_rate_limit_max: [max: number, ability: string];
  /** Rate-limit window in seconds for an ability (60). */
  svc_abilities_rate_limit_window: [window: number, ability: string];

  // kernel
  /** Whether `user` holds `capability`; runs after the role table decided. */
  svc_user_can: [allowed: boolean, user: SvcUser, capability: Capability];
  /** After routing and the capability and nonce checks, before the handler: return an error to refuse. */
  svc_rest_pre_dispatch: [denial: SvcError | null, request: RestRequest];
}

/** Actions named in the three spec documents and the kernel's own. */
export interface SvcSpecActions {
  // tracking.md §6
  /** Before a pageview row is written; statistic-table columns only. */
  svc_before_create_statistic: [statistic: SvcStatistic];
  /** After a pageview row is written; carries `search_term` when the hit had one. */
  svc_after_create_statistic: [insert_id: number, statistic: SvcStatistic];
  /** After a hit, with the new statistic id and the clicked URL (empty when none). */
  svc_track_external_link: [statistic_id: number, url: string];

  // reports-and-share-links.md §6 (scheduler hooks are actions too)
  /** Every hour: reports are evaluated for dispatch. */
  svc_every_hour: [];
  /** Every day: viewer sessions end, maintenance runs. */
  svc_daily: [];
  /** Every week: maintenance (junk browsers, stale rows). */
  svc_weekly: [];
  /** A single scheduled event sending one batch of a report queue. */
  svc_send_email_batch: [report_id: number, queue_id: string, batch_id: number | null];
  /** Creates the onboarding default report for one recipient. */
  svc_create_report_from_onboarding: [email: string];
}

/** Every filter: the documented ones plus those plugins add by augmentation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SvcFilters extends SvcSpecFilters {}
/** Every action: the documented ones plus those plugins add by augmentation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SvcActions extends SvcSpecActions {}
