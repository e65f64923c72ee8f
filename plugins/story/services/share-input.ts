import { DateTime } from 'luxon';
import type { SvcSharePermissions } from '../../../hooks';
import { absent, choice, type Hooks, object, optionalFlag, optionalObject, refuse, type StatisticsApi, SvcError, wholeNumber } from '../../../core';
import { STORY_TAB, type ShareTab, isShareTab } from '../shared/constants';
import type { InitialState, ShareInput } from '../types';
import { parseViewUrl } from './share-urls';

/** Lifetimes of `expiration` (§8), in seconds; `never` is stored as expiry 0. */
export const EXPIRATIONS = Object.freeze({ never: 0, '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 });
export type Expiration = keyof typeof EXPIRATIONS;
export const DEFAULT_EXPIRATION: Expiration = '7d';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface ShareInputDeps {
  now: number;
  baseUrl: string;
  /** Tabs that can be shared now: in the menu, and `sales` only on the business license. */
  available: readonly ShareTab[];
  hooks: Pick<Hooks, 'applyFilters'>;
  statistics: Pick<StatisticsApi, 'parseRequest' | 'dimensions'>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `permissions` (§4.2): each key false unless set, then `svc_share_permissions(parsed, raw)`. */
export async function parsePermissions(raw: unknown, hooks: Pick<Hooks, 'applyFilters'>): Promise<SvcSharePermissions> {
  const given = optionalObject(raw, 'permissions');
  const parsed: SvcSharePermissions = {
    can_change_date: optionalFlag(given.can_change_date, 'permissions.can_change_date'),
    can_filter: optionalFlag(given.can_filter, 'permissions.can_filter'),
  };
  const filtered = await hooks.applyFilters('svc_share_permissions', parsed, { ...given });
  if (!isObject(filtered)) return parsed;
  return { can_change_date: filtered.can_change_date === true, can_filter: filtered.can_filter === true };
}

/** `shared_tabs`: whitelisted, available tabs in the order given; anything else is dropped silently. */
function parseTabs(raw: unknown, available: readonly ShareTab[]): ShareTab[] {
  if (absent(raw)) return [];
  const items = typeof raw === 'string' ? raw.split(',').map((t) => t.trim()) : raw;
  if (!Array.isArray(items)) throw refuse('shared_tabs', 'must be a list of tab ids');
  const tabs = items.filter((t): t is ShareTab => isShareTab(t) && available.includes(t));
  return [...new Set(tabs)];
}

function parseDateRange(raw: unknown): InitialState['date_range'] {
  const range = optionalObject(raw, 'initial_state.date_range');
  const start = range.start ?? '';
  const end = range.end ?? '';
  if (typeof start !== 'string' || typeof end !== 'string') throw refuse('initial_state.date_range', 'start and end are dates written YYYY-MM-DD');
  if (start === '' && end === '') return { start: '', end: '' };
  for (const [name, value] of [['start', start], ['end', end]] as const) {
    if (!DAY.test(value) || !DateTime.fromISO(value, { zone: 'UTC' }).isValid) throw refuse(`initial_state.date_range.${name}`, 'must be a date written YYYY-MM-DD');
  }
  if (start > end) throw refuse('initial_state.date_range', 'start must not be after end');
  return { start, end };
}

/** Filters as the data routes accept them, with canonical dimension names; `status` only when given. */
function parseFilters(raw: unknown, statistics: ShareInputDeps['statistics']): Record<string, string> {
  const given = optionalObject(raw, 'initial_state.filters');
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw refuse(`initial_state.filters.${key.slice(0, 60)}`, 'must be a text value');
    if (String(value) !== '') cleaned[key] = String(value);
  }
  let parsed;
  try {
    parsed = statistics.parseRequest({ filters: cleaned }, { metrics: [], defaultMetrics: [], groupBy: [], defaultGroupBy: [], filters: statistics.dimensions() });
  } catch (err) {
    if (err instanceof SvcError && err.status === 400) throw refuse('initial_state.filters', err.message);
    throw err;
  }
  const filters = Object.fromEntries(parsed.filters.map((f) => [f.dimension, f.value]));
  return 'status' in cleaned ? { ...filters, status: parsed.status } : filters;
}

export function parseInitialState(raw: unknown, statistics: ShareInputDeps['statistics']): InitialState {
  const state = optionalObject(raw, 'initial_state');
  return { date_range: parseDateRange(state.date_range), filters: parseFilters(state.filters, statistics) };
}

/** The report of a story link; 0 (or not sent) for a dashboard link. */
const parseReportId = (raw: unknown): number => (absent(raw) ? 0 : wholeNumber(raw, 'report_id', 0));

/**
 * The parameters of `do_action/get_share_token` (§4.2) with their defaults.
 * A report link always opens the story and shares only it; a dashboard link
 * opens the tab of `view_url` (else its first shared tab), which it always shares.
 */
export async function parseShareInput(body: unknown, deps: ShareInputDeps): Promise<ShareInput> {
  const b = body === undefined || body === null ? {} : object(body, 'body');
  const expiration = absent(b.expiration) ? DEFAULT_EXPIRATION : choice(b.expiration, 'expiration', Object.keys(EXPIRATIONS) as Expiration[]);
  const reportId = parseReportId(b.report_id);
  const view = parseViewUrl(absent(b.view_url) ? '' : b.view_url, deps.baseUrl);
  const permissions = await parsePermissions(b.permissions, deps.hooks);
  const initialState = parseInitialState(b.initial_state, deps.statistics);
  const lifetime = EXPIRATIONS[expiration];
  const expires = lifetime === 0 ? 0 : deps.now + lifetime;
  if (reportId > 0) {
    return { expires, tab: STORY_TAB, viewQuery: '', permissions, sharedTabs: [STORY_TAB], initialState, reportId };
  }
  const tabs = parseTabs(b.shared_tabs, deps.available);
  const tab = view.tab && deps.available.includes(view.tab) ? view.tab : (tabs[0] ?? deps.available[0]);
  if (!tab) throw refuse('shared_tabs', 'no dashboard tab can be shared on this site');
  return {
    expires,
    tab,
    viewQuery: view.params.toString(),
    permissions,
    sharedTabs: tabs.includes(tab) ? tabs : [tab, ...tabs],
    initialState,
    reportId: 0,
  };
}
