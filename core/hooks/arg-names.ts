import type { SvcSpecActions, SvcSpecFilters } from '../../hooks';

/** One argument name per tuple member, so the runtime table cannot drift from the type map. */
type Names<T> = { readonly [I in keyof T]: string };
export type ArgNameTable<M> = { readonly [K in keyof M]: Names<M[K]> };

/** tapable needs argument names at construction and silently drops missing ones. */
export const FILTER_ARGS = {
  svc_before_track_hit: ['sanitized_data', 'hit_type', 'previous_hit'],
  svc_geoip_handler: ['handler'],
  svc_geo_ip_enabled: ['enabled'],
  svc_location_data: ['location', 'ip'],
  svc_localhost_location_data: ['location', 'ip'],
  svc_tracking_options: ['options'],
  svc_cookie_retention_days: ['days'],
  svc_goals_script_url: ['url'],
  svc_script_dependencies: ['deps'],
  svc_ip_blocklist: ['blocked_ips'],
  svc_visitor_ip: ['ip'],
  svc_obfuscate_filename: ['enabled'],
  svc_roles_excluded_from_tracking: ['roles'],
  svc_country_code_for_ip: ['country_code', 'ip'],
  svc_cdn_country_headers: ['headers'],
  svc_search_max_unspaced_length: ['length'],
  svc_search_merge_window: ['seconds'],
  svc_search_allowed_scripts: ['scripts', 'locales'],
  svc_search_injection_patterns: ['patterns'],
  svc_email_blocks: ['blocks'],
  svc_mail_report_limit: ['limit'],
  svc_mail_report_results: ['raw_results', 'qd', 'start_date', 'end_date'],
  svc_mail_reports_blocks: ['blocks', 'date_start', 'date_end'],
  svc_email_template: ['path'],
  svc_email_block_template: ['path'],
  svc_email_readmore_template: ['path'],
  svc_report_log_delete_threshold: ['days'],
  svc_report_formats: ['formats'],
  svc_share_permissions: ['defaults', 'raw_permissions'],
  svc_share_link_permissions: ['permissions'],
  svc_verify_nonce: ['nonce_is_valid', 'nonce', 'action'],
  svc_menu: ['menu'],
  svc_abilities_rate_limit_max: ['max', 'ability'],
  svc_abilities_rate_limit_window: ['window', 'ability'],
  svc_user_can: ['allowed', 'user', 'capability'],
  svc_rest_pre_dispatch: ['denial', 'request'],
} as const satisfies ArgNameTable<SvcSpecFilters>;

export const ACTION_ARGS = {
  svc_before_create_statistic: ['statistic'],
  svc_after_create_statistic: ['insert_id', 'statistic'],
  svc_track_external_link: ['statistic_id', 'url'],
  svc_every_hour: [],
  svc_daily: [],
  svc_weekly: [],
  svc_send_email_batch: ['report_id', 'queue_id', 'batch_id'],
  svc_create_report_from_onboarding: ['email'],
} as const satisfies ArgNameTable<SvcSpecActions>;
