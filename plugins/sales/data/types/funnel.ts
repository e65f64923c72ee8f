import { badRequest } from '../../../../core';
import { normalisePath, normaliseUrl } from '../../ingest/fields';
import type { PageSelection, ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

const MAX_PAGES = 200;

/**
 * `selected_pages`: pages (an array, a JSON array or one page) scoping the
 * product page views stage, each an absolute page URL or a site path
 * (`/product/mug/`), compared as ingestion stores pages (without query
 * string, fragment and trailing slash); a path matches that path on any host
 * the shop sent. Absent: every product page counts.
 */
export function selectedPages(raw: unknown): PageSelection | null {
  if (raw === undefined || raw === null || raw === '') return null;
  let value = raw;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest('selected_pages is not valid JSON.', 'svc_invalid_param', { field: 'selected_pages' });
    }
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_PAGES) throw badRequest(`selected_pages may name at most ${MAX_PAGES} pages.`, 'svc_invalid_param', { field: 'selected_pages' });
  const selection: PageSelection = { urls: [], paths: [] };
  for (const page of list) {
    const text = typeof page === 'string' && page.length <= 2048 ? page : '';
    const path = normalisePath(text);
    const url = path === null ? normaliseUrl(text) : null;
    if (path !== null) selection.paths.push(path);
    else if (url !== null) selection.urls.push(url);
    else throw badRequest('selected_pages must hold site paths (/product/mug/) or absolute http or https page URLs.', 'svc_invalid_param', { field: 'selected_pages' });
  }
  return selection;
}

/** §2.4: the five funnel stages in order. */
export async function salesFunnel(q: ShopQueries, w: SalesWindow, pages: PageSelection | null) {
  const c = await q.funnel(w.scope, pages);
  return [
    { id: 'visits', stage: 'Visits', value: c.visits },
    { id: 'product_page_views', stage: 'Product page views', value: c.views },
    { id: 'add_to_cart', stage: 'Add to cart', value: c.carts },
    { id: 'checkout_visits', stage: 'Checkout visits', value: c.checkouts },
    { id: 'conversions', stage: 'Conversions', value: c.orders },
  ];
}
