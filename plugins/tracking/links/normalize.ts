import { parseHttpUrl, truncate } from '../collect/text';

/**
 * The lookup form of an outbound URL (tracking.md §8.1): host lowercased,
 * fragment stripped, a trailing slash added when there is no query string and
 * the last path segment has no file extension. '' for anything but http(s)
 * with a host.
 */
export function normaliseLinkUrl(value: unknown): string {
  const url = parseHttpUrl(value, 2048);
  if (!url) return '';
  url.hash = '';
  if (!url.search && !url.pathname.endsWith('/')) {
    const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    if (!/\.[A-Za-z0-9]{1,8}$/.test(last)) url.pathname += '/';
  }
  // URL already lowercases the host; the rest keeps its case.
  const text = url.href;
  return text.length > 255 ? '' : truncate(text, 255);
}
