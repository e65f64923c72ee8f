import { type DashboardView, viewQuery } from '../../admin/dashboard-url';
import { readFilters } from './filters';

/** The selected period and filters, kept in the page URL so a reload or a shared link shows the same view. */
export type ViewState = DashboardView;

export const PRESETS: ReadonlyArray<{ id: string; label: string }> = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: 'last_7_days', label: 'Last 7 days' },
  { id: 'last_30_days', label: 'Last 30 days' },
  { id: 'this_month', label: 'This month' },
  { id: 'last_month', label: 'Last month' },
  { id: 'last_12_months', label: 'Last 12 months' },
  { id: 'custom', label: 'Custom range' },
];

const iso = (d: Date) => d.toISOString().slice(0, 10);
const shift = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
};

/** Today's date in the site timezone, as YYYY-MM-DD. */
export function siteToday(timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

export function presetRange(preset: string, today: string): { dateStart: string; dateEnd: string } {
  const monthStart = `${today.slice(0, 8)}01`;
  switch (preset) {
    case 'today':
      return { dateStart: today, dateEnd: today };
    case 'yesterday':
      return { dateStart: shift(today, -1), dateEnd: shift(today, -1) };
    case 'last_7_days':
      return { dateStart: shift(today, -6), dateEnd: today };
    case 'this_month':
      return { dateStart: monthStart, dateEnd: today };
    case 'last_month': {
      const end = shift(monthStart, -1);
      return { dateStart: `${end.slice(0, 8)}01`, dateEnd: end };
    }
    case 'last_12_months': {
      const yearAgo = new Date(`${today}T00:00:00Z`);
      yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
      return { dateStart: shift(iso(yearAgo), 1), dateEnd: today };
    }
    default:
      return { dateStart: shift(today, -29), dateEnd: today };
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readState(search: string, today: string): ViewState {
  const params = new URLSearchParams(search);
  const preset = params.get('range') ?? 'last_30_days';
  const filters = readFilters(params.get('filters'));
  const start = params.get('date_start') ?? '';
  const end = params.get('date_end') ?? '';
  if (preset === 'custom' && DATE.test(start) && DATE.test(end)) return { preset, dateStart: start, dateEnd: end, filters };
  const known = PRESETS.some((p) => p.id === preset && p.id !== 'custom') ? preset : 'last_30_days';
  return { preset: known, ...presetRange(known, today), filters };
}

/** The page's query string for `state` (the same form dashboard links are built in). */
export const writeState = (state: ViewState): string => viewQuery(state);
