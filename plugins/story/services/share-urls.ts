import { refuse, text } from '../../../core';
import { DASHBOARD_PATH, TOKEN_PARAM, type ShareTab, isShareTab } from '../shared/constants';

/** The tab and view parameters of a `view_url` (§4.2). */
export interface ParsedView {
  tab: ShareTab | null;
  params: URLSearchParams;
}

/** Parameters never carried over from a view: credentials of the one who made the link. */
const DROPPED = [TOKEN_PARAM, 'svc_nonce', '_svc_nonce'];
export const MAX_VIEW_URL = 2048;
/** `#/{tab}?{params}`: the hash route of dashboards before v3.4.2. */
const LEGACY_ROUTE = /^#\/([^?]*)(?:\?(.*))?$/;

/**
 * Reads a dashboard URL: the last path segment gives the tab; a legacy hash
 * route moves its tab into the path and merges its parameters into the query
 * (the hash wins a clash). Tabs outside the whitelist give no tab.
 */
export function parseViewUrl(raw: unknown, baseUrl: string): ParsedView {
  const view = text(raw, 'view_url', { max: MAX_VIEW_URL });
  if (view === '') return { tab: null, params: new URLSearchParams() };
  let url: URL;
  try {
    url = new URL(view, `${baseUrl}/`);
  } catch {
    throw refuse('view_url', 'is not a URL or path');
  }
  const params = new URLSearchParams(url.search);
  let segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
  const legacy = LEGACY_ROUTE.exec(url.hash);
  if (legacy) {
    segment = legacy[1]!.split('/').filter(Boolean)[0] ?? '';
    for (const [key, value] of new URLSearchParams(legacy[2] ?? '')) params.set(key, value);
  }
  for (const key of DROPPED) params.delete(key);
  return { tab: isShareTab(segment) ? segment : null, params };
}

/**
 * `{prefix}/svc-dashboard/{tab}/?svc_share_token=…&{view}`. The prefix is the
 * configured base URL (so the scheme is always the site's) or, for redirects
 * within the site, its base path.
 */
export function shareUrl(prefix: string, tab: string, token: string, view: string | URLSearchParams = ''): string {
  const query = new URLSearchParams({ [TOKEN_PARAM]: token });
  for (const [key, value] of new URLSearchParams(view)) if (!DROPPED.includes(key)) query.append(key, value);
  return `${prefix}${DASHBOARD_PATH}/${tab}/?${query.toString()}`;
}
