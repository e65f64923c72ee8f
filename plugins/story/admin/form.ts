import { badRequest, type FieldProblem } from '../../../core';

/** The share form's fields as posted (and shown again after a refusal). */
export interface ShareFormValues {
  tabs: string[];
  can_change_date: boolean;
  can_filter: boolean;
  expiration: string;
  view_url: string;
  date_start: string;
  date_end: string;
  /** `key: value`, one filter per line. */
  filters: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const list = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

export function emptyForm(expiration: string): ShareFormValues {
  return { tabs: [], can_change_date: false, can_filter: false, expiration, view_url: '', date_start: '', date_end: '', filters: '' };
}

export function valuesFromBody(body: Readonly<Record<string, unknown>>): ShareFormValues {
  return {
    tabs: list(body.tabs),
    can_change_date: body.can_change_date === '1',
    can_filter: body.can_filter === '1',
    expiration: text(body.expiration),
    view_url: text(body.view_url),
    date_start: text(body.date_start),
    date_end: text(body.date_end),
    filters: typeof body.filters === 'string' ? body.filters : '',
  };
}

/** Page parameters of a dashboard view that the form's own period and filters fields stand for. */
const PERIOD_PARAMS = ['range', 'date_start', 'date_end'];

/**
 * The "Opens at" address with what the form's fields decide taken out: the
 * filters always (a cleared filters field clears them), the period when the
 * period fields are left empty (the link then starts at the last 30 days).
 */
function openingAddress(values: ShareFormValues): string {
  const query = values.view_url.indexOf('?');
  if (query === -1) return values.view_url;
  const hash = values.view_url.indexOf('#', query);
  const params = new URLSearchParams(values.view_url.slice(query + 1, hash === -1 ? undefined : hash));
  params.delete('filters');
  if (values.date_start === '' && values.date_end === '') for (const name of PERIOD_PARAMS) params.delete(name);
  const rest = params.toString();
  return `${values.view_url.slice(0, query)}${rest ? `?${rest}` : ''}${hash === -1 ? '' : values.view_url.slice(hash)}`;
}

/** Problems of the form itself, before the link is made: at least one page must be shared. */
export function formProblems(values: ShareFormValues): FieldProblem[] {
  return values.tabs.length === 0 ? [{ field: 'shared_tabs', problem: 'no page is ticked' }] : [];
}

/** The form field a refused `get_share_token` field belongs to, and what to tell the person filling in the form. */
function explain({ field, problem }: FieldProblem): [string, string] {
  if (field === 'shared_tabs') return ['tabs', 'Tick at least one page to share.'];
  if (field === 'view_url') return ['view_url', 'Give a dashboard address, such as the one of the page you want the link to open, or leave it empty.'];
  if (field.startsWith('initial_state.date_range')) return ['period', 'Give both days of the starting period, the first not after the last, or leave both empty.'];
  if (field.startsWith('initial_state.filters')) return ['filters', `Write each filter on its own line as key: value, with a key such as page_url, referrer, device or country. (${problem})`];
  if (field === 'expiration') return ['expiration', 'Choose when the link expires.'];
  return ['', problem];
}

/** Every problem of a refused form, by form field (`''` for the form as a whole). */
export function shareFormErrors(problems: readonly FieldProblem[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const [key, text] = explain(problem);
    errors[key] = errors[key] && !errors[key].includes(text) ? `${errors[key]} ${text}` : text;
  }
  return errors;
}

/** The form as a `get_share_token` body, so both go through the same validation. */
export function shareBodyFromValues(values: ShareFormValues): Record<string, unknown> {
  const filters: Record<string, string> = {};
  for (const line of values.filters.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const at = line.indexOf(':');
    if (at <= 0) throw badRequest(`Filters: write each one as "key: value" (got "${line.trim().slice(0, 60)}")`, 'svc_invalid_param', { field: 'initial_state.filters' });
    filters[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return {
    expiration: values.expiration,
    view_url: openingAddress(values),
    permissions: { can_change_date: values.can_change_date, can_filter: values.can_filter },
    shared_tabs: values.tabs,
    initial_state: { date_range: { start: values.date_start, end: values.date_end }, filters },
  };
}
