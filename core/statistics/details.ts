import { badRequest } from '../errors';

/** Rows a details view, a whole-set CSV or one file of an export reads at most from one datatable. */
export const DETAILS_MAX_ROWS = 10000;
const MAX_SEARCH = 255;

/** The details parameters of a datatable request: search, sort and page over all its rows. */
export interface DetailsQuery {
  /** Lower-case text every row must contain in one of its dimension columns. */
  search: string;
  orderBy: string | null;
  order: 'asc' | 'desc';
  offset: number;
}

const DETAIL_KEYS = ['search', 'order_by', 'order', 'offset', 'details'] as const;

/** True when the request names any details parameter (otherwise the route answers exactly as documented). */
export function wantsDetails(query: Readonly<Record<string, unknown>>): boolean {
  return DETAIL_KEYS.some((key) => query[key] !== undefined && query[key] !== '');
}

const invalid = (message: string, field: string) => badRequest(message, 'svc_invalid_param', { field });

/** The columns of an answer: its dimensions, its metrics, then any other field its rows carry (such as a channel). */
export function columnsOf(groupBy: readonly string[], metrics: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string[] {
  const all = [...groupBy, ...metrics];
  for (const row of rows) for (const key of Object.keys(row)) if (!all.includes(key)) all.push(key);
  return all;
}

/**
 * Reads `search`, `order_by` (one of `columns`), `order` (`asc`/`desc`) and
 * `offset`; a bad one is a 400 naming it. With no rows, the extra columns are
 * unknown, so any column name is taken (a bookmarked sort of a period without data).
 */
export function parseDetails(query: Readonly<Record<string, unknown>>, columns: readonly string[], noRows = false): DetailsQuery {
  const { search = '', order_by: orderBy = '', order = 'desc', offset = '0' } = query;
  if (typeof search !== 'string' || search.length > MAX_SEARCH) throw invalid(`search must be text of at most ${MAX_SEARCH} characters.`, 'search');
  const known = typeof orderBy === 'string' && (orderBy === '' || columns.includes(orderBy) || (noRows && /^[a-z_]{1,64}$/.test(orderBy)));
  if (!known) throw invalid(`order_by must be one of ${columns.join(', ')}.`, 'order_by');
  if (order !== 'asc' && order !== 'desc') throw invalid('order must be asc or desc.', 'order');
  const at = typeof offset === 'string' && /^\d{1,9}$/.test(offset) ? Number(offset) : typeof offset === 'number' ? offset : NaN;
  if (!Number.isInteger(at) || at < 0 || at >= DETAILS_MAX_ROWS) throw invalid(`offset must be a whole number from 0 to ${DETAILS_MAX_ROWS - 1}.`, 'offset');
  return { search: search.trim().toLowerCase(), orderBy: orderBy || null, order, offset: at };
}

/** A money cell (`{ currency, value }`) sorts by its value. */
const sortable = (v: unknown): unknown => (typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value === 'number' ? (v as { value: number }).value : v);

function compare(x: unknown, y: unknown): number {
  const [a, b] = [sortable(x), sortable(y)];
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

const hasText = (row: Record<string, unknown>, search: string) => Object.values(row).some((v) => typeof v === 'string' && v.toLowerCase().includes(search));

/**
 * The rows that contain the search in one of their text fields (the
 * dimensions, a product's name, a channel: plain text, case-insensitive, no
 * wildcard), sorted by the chosen column (ties by the dimensions, so pages
 * never overlap). Without `order_by` the datatable's own order stays.
 */
export function searchAndSort<T extends Record<string, unknown>>(rows: readonly T[], details: DetailsQuery, dimensions: readonly string[]): T[] {
  const found = details.search ? rows.filter((row) => hasText(row, details.search)) : [...rows];
  const { orderBy } = details;
  if (!orderBy) return found;
  const sign = details.order === 'asc' ? 1 : -1;
  return found.sort((a, b) => sign * compare(a[orderBy], b[orderBy]) || dimensions.reduce((r, d) => r || compare(a[d], b[d]), 0));
}
