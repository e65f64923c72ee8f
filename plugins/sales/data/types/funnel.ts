import { badRequest } from '../../../../core/errors';
import { normaliseUrl } from '../../ingest/fields';
import type { ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

const MAX_PAGES = 200;

/**
 * `selected_pages`: page URLs (an array, a JSON array or one URL) scoping the
 * product page views stage, compared as ingestion stores them (without query
 * string, fragment and trailing slash). Absent: every product page counts.
 */
export function selectedPages(raw: unknown): string[] | null {
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
  return list.map((page) => {
    const url = typeof page === 'string' && page.length <= 2048 ? normaliseUrl(page) : null;
    if (!url) throw badRequest('selected_pages must hold absolute http or https page URLs.', 'svc_invalid_param', { field: 'selected_pages' });
    return url;
  });
}

/** §2.4: the five funnel stages in order. */
export async function salesFunnel(q: ShopQueries, w: SalesWindow, pages: string[] | null) {
  const c = await q.funnel(w.scope, pages);
  return [
    { id: 'visits', stage: 'Visits', value: c.visits },
    { id: 'product_page_views', stage: 'Product page views', value: c.views },
    { id: 'add_to_cart', stage: 'Add to cart', value: c.carts },
    { id: 'checkout_visits', stage: 'Checkout visits', value: c.checkouts },
    { id: 'conversions', stage: 'Conversions', value: c.orders },
  ];
}
