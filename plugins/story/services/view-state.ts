import type { SvcSharePermissions } from '../../../hooks';
import { presetRange, PRESETS } from '../../../core';
import { TOKEN_PARAM } from '../shared/constants';
import type { ShareLink } from '../types';

const DATE_PARAMS = ['range', 'date_start', 'date_end'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The period and filters a link fixes, as page parameters: its initial
 * state where it has one, else the view it was made from (`view_url`).
 */
export function fixedView(link: ShareLink): URLSearchParams {
  const own = new URL(link.url).searchParams;
  const fixed = new URLSearchParams();
  const { start, end } = link.initial_state.date_range;
  if (start) {
    fixed.set('range', 'custom');
    fixed.set('date_start', start);
    fixed.set('date_end', end);
  } else {
    for (const param of DATE_PARAMS) if (own.has(param)) fixed.set(param, own.get(param)!);
  }
  const filters = Object.keys(link.initial_state.filters).length > 0 ? JSON.stringify(link.initial_state.filters) : own.get('filters');
  if (filters) fixed.set('filters', filters);
  fixed.delete(TOKEN_PARAM);
  return fixed;
}

/**
 * The parameters of a shared tab page: what the link fixes, in place of what
 * the address names when the link does not let the viewer change it, and
 * where the address names nothing.
 */
export function sharedView(query: URLSearchParams, link: ShareLink, permissions: SvcSharePermissions): URLSearchParams {
  const view = new URLSearchParams(query);
  const fixed = fixedView(link);
  if (!permissions.can_change_date || (!DATE_PARAMS.some((p) => view.has(p)) && DATE_PARAMS.some((p) => fixed.has(p)))) {
    for (const param of DATE_PARAMS) view.delete(param);
    for (const param of DATE_PARAMS) if (fixed.has(param)) view.set(param, fixed.get(param)!);
  }
  if (!permissions.can_filter || (!view.has('filters') && fixed.has('filters'))) {
    view.delete('filters');
    if (fixed.has('filters')) view.set('filters', fixed.get('filters')!);
  }
  return view;
}

/** The days page parameters stand for, read as the dashboard reads them; null for the default period. */
function daysOf(view: URLSearchParams, today: string): { start: string; end: string } | null {
  const range = view.get('range');
  const start = view.get('date_start') ?? '';
  const end = view.get('date_end') ?? '';
  if (range === 'custom') return DAY.test(start) && DAY.test(end) ? { start, end } : null;
  if (range && PRESETS.some((p) => p.id === range)) {
    const days = presetRange(range, today);
    return { start: days.dateStart, end: days.dateEnd };
  }
  return null;
}

/** The REST side of `sharedView`: what the link fixes is forced onto a data request of its session. */
export function forceView(query: Record<string, unknown>, link: ShareLink, permissions: SvcSharePermissions, today: string): void {
  const fixed = fixedView(link);
  if (!permissions.can_change_date) {
    delete query.date_start;
    delete query.date_end;
    const days = daysOf(fixed, today);
    if (days) {
      query.date_start = days.start;
      query.date_end = days.end;
    }
  }
  if (!permissions.can_filter) {
    delete query.filters;
    if (fixed.has('filters')) query.filters = fixed.get('filters');
  }
}
