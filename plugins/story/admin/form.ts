import { badRequest } from '../../../core/errors';

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
    view_url: values.view_url,
    permissions: { can_change_date: values.can_change_date, can_filter: values.can_filter },
    shared_tabs: values.tabs,
    initial_state: { date_range: { start: values.date_start, end: values.date_end }, filters },
  };
}
