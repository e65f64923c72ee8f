import { type DataRequest, isoDay, previousPeriod, type TimeRange } from '../../../core';
import type { Scope } from './scope';

/** The window a data type actually queries, its previous period and the currency of its money. */
export interface SalesWindow {
  scope: Scope;
  previous: Scope;
  dateStart: string;
  dateEnd: string;
  currency: string;
}

/**
 * The request's window moved forward to `floor` (ecommerce.md §4.2 clamping);
 * a window wholly before it becomes empty. The previous period is the same
 * number of days before the window actually queried.
 */
export function clampedWindow(siteId: number, request: DataRequest, floor: number | null, currency: string, timezone: string): SalesWindow {
  const start = floor === null ? request.range.start : Math.min(Math.max(request.range.start, floor), request.range.end);
  const range: TimeRange = { start, end: request.range.end };
  return {
    scope: { siteId, range, timezone, filters: request.filters },
    previous: { siteId, range: previousPeriod(range, timezone), timezone, filters: request.filters },
    dateStart: isoDay(start, timezone),
    dateEnd: request.dateEnd,
    currency,
  };
}
