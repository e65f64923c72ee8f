import type { SvcSharePermissions } from '../../hooks';

/** A link's starting view (§2.5): a date range and filters; empty strings and `{}` when unset. */
export interface InitialState {
  date_range: { start: string; end: string };
  filters: Record<string, string>;
}

/** A share token record as `list_share_links` returns it (§2.5). */
export interface ShareLink {
  token: string;
  url: string;
  /** Unix expiry; 0 when the link never expires. */
  expires: number;
  created: number;
  /** 0 for dashboard links, the report id for story links. */
  report_id: number;
  permissions: SvcSharePermissions;
  shared_tabs: string[];
  initial_state: InitialState;
}

/** A link as a visitor's token finds it: with the site it is bound to, the only site it can read. */
export interface BoundLink extends ShareLink {
  siteId: number;
}

/** Everything `get_share_token` stores, after validation. */
export interface ShareInput {
  expires: number;
  /** The tab the link opens (`story` for report links). */
  tab: string;
  /** View parameters the link carries besides its token (`range=last_7_days&...`). */
  viewQuery: string;
  permissions: SvcSharePermissions;
  sharedTabs: string[];
  initialState: InitialState;
  reportId: number;
}

/** Kinds of `get_share_links` (§4.6). */
export type ShareLinkType = 'all' | 'link' | 'report';
