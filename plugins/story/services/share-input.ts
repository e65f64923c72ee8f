import { DateTime } from 'luxon';
import type { SvcSharePermissions } from '../../../hooks';
import { badRequest, type Hooks, type StatisticsApi, SvcError } from '../../../core';
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

type Obj = Record<string, unknown>;
const invalid = (field: string, message: string) => badRequest(`${field}: ${message}`, 'svc_invalid_param', { field });
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;

/** An object field; absent is `{}`. */
function objectField(value: unknown, field: string): Obj {
  if (absent(value)) return {};
  if (!isObject(value)) throw invalid(field, 'must be an object');
  return value;
}

function flag(value: unknown, field: string): boolean {
  if (absent(value) || value === false || value === 0 || value === '0' || value === 'false' || value === '') return false;
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  throw invalid(field, 'must be true or false');
}

/** `permissions` (§4.2): each key false unless set, then `svc_share_permissions(parsed, raw)`. */
export async function parsePermissions(raw: unknown, hooks: Pick<Hooks, 'applyFilters'>): Promise<SvcSharePermissions> {
  const given = objectField(raw, 'permissions');
  const parsed: SvcSharePermissions = {
    can_change_date: flag(given.can_change_date, 'permissions.can_change_date'),
    can_filter: flag(given.can_filter, 'permissions.can_filter'),
  };
  const filtered = await hooks.applyFilters('svc_share_permissions', parsed, { ...given });
  if (!isObject(filtered)) return parsed;
  return { can_change_date: filtered.can_change_date === true, can_filter: filtered.can_filter === true };
}

/** `shared_tabs`: whitelisted, available tabs in the order given; anything else is dropped silently. */
function parseTabs(raw: unknown, available: readonly ShareTab[]): ShareTab[] {
  if (absent(raw)) return [];
  const items = typeof raw === 'string' ? raw.split(',').map((t) => t.trim()) : raw;
  if (!Array.isArray(items)) throw invalid('shared_tabs', 'must be a list of tab ids');
  const tabs = items.filter((t): t is ShareTab => isShareTab(t) && available.includes(t));
  return [...new Set(tabs)];
}

function parseDateRange(raw: unknown): InitialState['date_range'] {
  const range = objectField(raw, 'initial_state.date_range');
  const start = range.start ?? '';
  const end = range.end ?? '';
  if (typeof start !== 'string' || typeof end !== 'string') throw invalid('initial_state.date_range', 'start and end are dates written YYYY-MM-DD');
  if (start === '' && end === '') return { start: '', end: '' };
  for (const [name, value] of [['start', start], ['end', end]] as const) {
    if (!DAY.test(value) || !DateTime.fromISO(value, { zone: 'UTC' }).isValid) throw invalid(`initial_state.date_range.${name}`, 'must be a date written YYYY-MM-DD');
  }
  if (start > end) throw invalid('initial_state.date_range', 'start must not be after end');
  return { start, end };
}

/** Filters as the data routes accept them, with canonical dimension names; `status` only when given. */
function parseFilters(raw: unknown, statistics: ShareInputDeps['statistics']): Record<string, string> {
  const given = objectField(raw, 'initial_state.filters');
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw invalid(`initial_state.filters.${key.slice(0, 60)}`, 'must be a text value');
    if (String(value) !== '') cleaned[key] = String(value);
  }
  let parsed;
  try {
    parsed = statistics.parseRequest({ filters: cleaned }, { metrics: [], defaultMetrics: [], groupBy: [], defaultGroupBy: [], filters: statistics.dimensions() });
  } catch (err) {
    if (err instanceof SvcError && err.status === 400) throw invalid('initial_state.filters', err.message);
    throw err;
  }
  const filters = Object.fromEntries(parsed.filters.map((f) => [f.dimension, f.value]));
  return 'status' in cleaned ? { ...filters, status: parsed.status } : filters;
}

export function parseInitialState(raw: unknown, statistics: ShareInputDeps['statistics']): InitialState {
  const state = objectField(raw, 'initial_state');
  return { date_range: parseDateRange(state.date_range), filters: parseFilters(state.filters, statistics) };
}

function parseReportId(raw: unknown): number {
  if (absent(raw) || raw === '') return 0;
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw invalid('report_id', 'must be a whole number, 0 for a dashboard link');
  return id;
}

/**
 * The parameters of `do_action/get_share_token` (§4.2) with their defaults.
 * A report link always opens the story and shares only it; a dashboard link
 * opens the tab of `view_url` (else its first shared tab), which it always shares.
 */
export async function parseShareInput(body: unknown, deps: ShareInputDeps): Promise<ShareInput> {
  if (!absent(body) && !isObject(body)) throw badRequest('The body must be a JSON object.', 'svc_invalid_param', { field: 'body' });
  const b = (body ?? {}) as Obj;
  const expiration = absent(b.expiration) ? DEFAULT_EXPIRATION : b.expiration;
  if (typeof expiration !== 'string' || !Object.prototype.hasOwnProperty.call(EXPIRATIONS, expiration)) {
    throw invalid('expiration', `must be one of ${Object.keys(EXPIRATIONS).join(', ')}`);
  }
  const viewUrl = absent(b.view_url) ? '' : b.view_url;
  if (typeof viewUrl !== 'string') throw invalid('view_url', 'must be a string');
  const reportId = parseReportId(b.report_id);
  const view = parseViewUrl(viewUrl, deps.baseUrl);
  const permissions = await parsePermissions(b.permissions, deps.hooks);
  const initialState = parseInitialState(b.initial_state, deps.statistics);
  const lifetime = EXPIRATIONS[expiration as Expiration];
  const expires = lifetime === 0 ? 0 : deps.now + lifetime;
  if (reportId > 0) {
    return { expires, tab: STORY_TAB, viewQuery: '', permissions, sharedTabs: [STORY_TAB], initialState, reportId };
  }
  const tabs = parseTabs(b.shared_tabs, deps.available);
  const tab = view.tab && deps.available.includes(view.tab) ? view.tab : (tabs[0] ?? deps.available[0]);
  if (!tab) throw invalid('shared_tabs', 'no dashboard tab can be shared on this site');
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
