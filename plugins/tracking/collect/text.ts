/** String clean-up shared by every tracked field. */

// C0/C1 controls, DEL, zero-width and bidi overrides: never useful in tracked data.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Well-formed text without control characters, cut to `max` code points. */
export function cleanText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const text = value.replace(LONE_SURROGATE, '\ufffd').replace(CONTROL, ' ').trim();
  return truncate(text, max);
}

/** Cuts to `max` code points without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}

/** A non-negative safe integer from a number or numeric string, else `fallback`. */
export function toUint(value: unknown, max: number, fallback = 0): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0) return fallback;
  return Math.min(Math.floor(n), max);
}

/** An http(s) URL with a host, or null. */
export function parseHttpUrl(value: unknown, maxLength = 4096): URL | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  return url;
}

/** Host of a URL string, lowercased, or '' when it is not an http(s) URL. */
export function hostOf(value: unknown): string {
  return parseHttpUrl(value)?.host.toLowerCase() ?? '';
}
