/** The page types of tracking.md §2.4; any public post type slug (post, page, product...) is valid too. */
export const PAGE_TYPES = ['front-page', 'blog-index', 'date-archive', '404', 'archive-generic', 'wc-shop', 'tag', 'tax', 'author', 'search', 'category'] as const;

/** What a page is, for the tracker: its post or term id (0 when none) and its type. */
export interface PageTyping {
  id?: number;
  type: string;
}

/** A type the pipeline stores: lowercase letters, digits, `-` and `_`, at most 50 (as the hit payload allows). */
const TYPE_RE = /^[a-z0-9_-]{1,50}$/;

/**
 * The body attributes of §2.4 (` data-svc_id="…" data-svc_type="…"`), with a
 * leading space. Throws a TypeError naming the field for an id that is not a
 * non-negative integer or a type the pipeline would not store.
 */
export function bodyAttributes(page: PageTyping): string {
  const id = page.id ?? 0;
  if (!Number.isSafeInteger(id) || id < 0) throw new TypeError(`page id: a non-negative integer is required, got ${String(id).slice(0, 40)}`);
  if (typeof page.type !== 'string' || !TYPE_RE.test(page.type)) {
    throw new TypeError(`page type: lowercase letters, digits, - or _ (at most 50) are required, got ${String(page.type).slice(0, 60)}`);
  }
  return ` data-svc_id="${id}" data-svc_type="${page.type}"`;
}

/** The first body tag; attribute values may hold `>`. */
const BODY_TAG = /<(body)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/i;

/**
 * Writes the body attributes into the first `<body>` tag of an HTML page, as
 * the reference platform does with output buffering. XML documents, pages
 * without a body tag and pages whose body already carries `data-svc_type`
 * come back unchanged.
 */
export function addBodyAttributes(html: string, page: PageTyping): string {
  if (html.trimStart().startsWith('<?xml')) return html;
  const match = BODY_TAG.exec(html);
  const attributes = match?.[2] ?? '';
  if (!match || /\sdata-svc_type\s*=/i.test(attributes)) return html;
  const tag = `<${match[1]}${attributes}${bodyAttributes(page)}${match[3] ?? ''}>`;
  return html.slice(0, match.index) + tag + html.slice(match.index + match[0].length);
}
