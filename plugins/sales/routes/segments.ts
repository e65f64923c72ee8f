import { notFound } from '../../../core/errors';
import type { SalesCore } from '../core';

const SEGMENT = /^[a-z_-]+$/;

/**
 * Path segments `{type}`, `{id}` and `{action}` match `[a-z_-]+` (§4); express
 * routes ignore case, so `/data/ecommerce/Sales` is refused here with 404.
 */
export function guardSegments(core: SalesCore): void {
  core.ctx.hooks.addFilter('svc_rest_pre_dispatch', (denial, request) => {
    if (denial || request.route.plugin !== 'sales' || request.route.method !== 'GET') return denial;
    const last = request.raw.path.split('/').filter(Boolean).pop() ?? '';
    return SEGMENT.test(last) ? null : notFound();
  });
}
