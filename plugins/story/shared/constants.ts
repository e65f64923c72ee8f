/**
 * Names and limits of share links (reports-and-share-links.md §4.3-§4.4, §5, §8).
 * Pure values: the server and the browser bundles both import them.
 */

/** Dashboard tabs a link may share (§4.4); `dashboard` and `subscriptions` left the list in v3.4.2. */
export const SHARE_TABS = ['statistics', 'sources', 'sales'] as const;
export type ShareTab = (typeof SHARE_TABS)[number];

/** Reserved tab of report (story) links; never selectable through `shared_tabs`. */
export const STORY_TAB = 'story';

export function isShareTab(value: unknown): value is ShareTab {
  return typeof value === 'string' && (SHARE_TABS as readonly string[]).includes(value);
}

/** Where share links live below `{base_url}`. */
export const DASHBOARD_PATH = '/svc-dashboard';

/** Query parameter of share URLs and pages. */
export const TOKEN_PARAM = 'svc_share_token';

/** Header the REST calls of a share session carry. */
export const TOKEN_HEADER = 'X-Svc-Share-Token';

/** 16 random bytes, hex: checked before anything else is done with a token (§5 rule 5). */
export const TOKEN_FORMAT = /^[a-f0-9]{32}$/;

export function isTokenFormat(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_FORMAT.test(value);
}
