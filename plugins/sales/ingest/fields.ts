import { REQUIRED, absent, choice, numeric, problemsOf, refuse, text as readText, wholeNumber as readWholeNumber } from '../../../core';

/** A field of one event that cannot be stored; the event is rejected with this code and message. */
export class FieldError extends Error {
  constructor(
    readonly code: 'svc_missing_field' | 'svc_invalid_field' | 'svc_invalid_event_type' | 'svc_invalid_event' | 'svc_unknown_order',
    message: string,
  ) {
    super(message);
  }
}

export type Fields = Readonly<Record<string, unknown>>;

/**
 * The rejection of an event whose fields the validation kit refused: the
 * first refused field, as `svc_missing_field` when it was not sent and
 * `svc_invalid_field` otherwise, worded `{field} {problem}.`.
 */
export function asFieldError(err: unknown): unknown {
  const first = problemsOf(err)?.[0];
  if (!first) return err;
  return new FieldError(first.problem === REQUIRED ? 'svc_missing_field' : 'svc_invalid_field', `${first.field} ${first.problem}.`);
}

/** Whether an optional field was sent (not missing, null or ''). */
export const given = (fields: Fields, name: string): boolean => !absent(fields[name]);

/** The value of a field that must be sent. */
function sent(fields: Fields, name: string): unknown {
  if (absent(fields[name])) throw refuse(name, REQUIRED);
  return fields[name];
}

/** Earliest accepted event time (2000-01-01) and how far ahead of the clock an event may be. */
const MIN_TIME = 946_684_800;
const FUTURE_SLACK = 86_400;
const MAX_MONEY = 1e12;

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export function text(fields: Fields, name: string, max: number, required = true): string {
  if (!required && !given(fields, name)) return '';
  return readText(sent(fields, name), name, { max, required });
}

/** An identifier sent as text or a whole number. */
export function identifier(fields: Fields, name: string, max: number, required = true): string | null {
  if (!required && !given(fields, name)) return null;
  const raw = sent(fields, name);
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return String(raw);
  if (typeof raw !== 'string' || raw.trim() === '') throw refuse(name, 'must be text or a whole number');
  return readText(raw, name, { max });
}

export const wholeNumber = (fields: Fields, name: string, min: number, max: number): number => readWholeNumber(sent(fields, name), name, min, max);

export function money(fields: Fields, name: string): number {
  const n = numeric(sent(fields, name));
  if (!Number.isFinite(n) || n < 0 || n > MAX_MONEY) throw refuse(name, 'must be a number of at least 0');
  return n;
}

/** ISO 4217 code, upper-cased. */
export function currency(fields: Fields, name = 'currency'): string {
  const raw = sent(fields, name);
  const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!CURRENCIES.has(code)) throw refuse(name, 'must be an ISO 4217 currency code such as EUR');
  return code;
}

export function countryCode(fields: Fields, name: string): string {
  if (!given(fields, name)) return '';
  const raw = fields[name];
  const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!/^[A-Z]{2}$/.test(code)) throw refuse(name, 'must be an ISO 3166-1 alpha-2 country code such as DE');
  return code;
}

export const oneOf = <T extends string>(fields: Fields, name: string, choices: readonly T[]): T => choice(sent(fields, name), name, choices);

/** Unix seconds (a whole number) or an ISO 8601 date-time with a zone; not before 2000 nor a day ahead of `now`. */
export function time(fields: Fields, now: number, name = 'time'): number {
  const raw = sent(fields, name);
  let t = Number.NaN;
  if (typeof raw === 'number' && Number.isInteger(raw)) t = raw;
  else if (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(raw.trim())) t = Math.floor(Date.parse(raw.trim()) / 1000);
  if (!Number.isFinite(t)) throw refuse(name, 'must be unix seconds or an ISO 8601 date-time with a time zone');
  if (t < MIN_TIME || t > now + FUTURE_SLACK) throw refuse(name, 'must lie between 2000-01-01 and tomorrow');
  return t;
}

/**
 * An http(s) page URL without query string and fragment (and without a
 * trailing slash except at the root), so views and selected pages compare equal.
 */
export function normaliseUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `${url.protocol}//${url.host}${storedPath(url)}`;
}

/** The path part of a stored page URL: no trailing slash except at the root. */
const storedPath = (url: URL): string => (url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname);

/**
 * A site path (`/product/a/?ref=x#top`) reduced as `normaliseUrl` reduces the
 * path of a page URL (`/product/a`), so it compares equal to the path of a
 * stored page; null when the text is not a path from the site root.
 */
export function normalisePath(raw: string): string | null {
  const text = raw.trim();
  if (!text.startsWith('/') || text.startsWith('//')) return null;
  return storedPath(new URL(text, 'http://site.invalid'));
}

/** The path of a page URL as `normaliseUrl` stored it. */
export const pathOfStored = (url: string): string => storedPath(new URL(url));

export function pageUrl(fields: Fields, name = 'url'): string {
  const raw = text(fields, name, 2048);
  const url = normaliseUrl(raw);
  if (!url) throw refuse(name, 'must be an absolute http or https URL');
  if (url.length > 255) throw refuse(name, 'must be at most 255 characters without its query string');
  return url;
}
