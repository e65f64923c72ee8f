import type { SvcSharePermissions } from '../../../hooks';
import type { InitialState } from '../types';

const DATE_PARAMS = ['range', 'date_start', 'date_end'];

/**
 * The view parameters of a shared tab page: the link's initial state where
 * the page names none, and in place of whatever the page names when the link
 * does not let the viewer change dates or filters.
 */
export function sharedView(query: URLSearchParams, state: InitialState, permissions: SvcSharePermissions): URLSearchParams {
  const view = new URLSearchParams(query);
  const { start, end } = state.date_range;
  if (!permissions.can_change_date || (start && !DATE_PARAMS.some((p) => view.has(p)))) {
    for (const param of DATE_PARAMS) view.delete(param);
    if (start) {
      view.set('range', 'custom');
      view.set('date_start', start);
      view.set('date_end', end);
    }
  }
  const filters = Object.keys(state.filters).length > 0 ? JSON.stringify(state.filters) : '';
  if (!permissions.can_filter || (filters && !view.has('filters'))) {
    view.delete('filters');
    if (filters) view.set('filters', filters);
  }
  return view;
}

/** Forces the link's limits onto a data request's query (the REST side of `sharedView`). */
export function forceView(query: Record<string, unknown>, state: InitialState, permissions: SvcSharePermissions): void {
  if (!permissions.can_change_date) {
    delete query.date_start;
    delete query.date_end;
    if (state.date_range.start) {
      query.date_start = state.date_range.start;
      query.date_end = state.date_range.end;
    }
  }
  if (!permissions.can_filter) {
    delete query.filters;
    if (Object.keys(state.filters).length > 0) query.filters = { ...state.filters };
  }
}
