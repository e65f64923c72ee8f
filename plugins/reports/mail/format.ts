import type { SvcQueryRow } from '../../../hooks';

const METRIC_LABELS: Readonly<Record<string, string>> = {
  pageviews: 'Pageviews',
  visitors: 'Visitors',
  sessions: 'Sessions',
  bounces: 'Bounces',
  bounce_rate: 'Bounce rate',
  avg_time_on_page: 'Time on page',
  avg_session_duration: 'Session duration',
  first_time_visitors: 'New visitors',
  conversions: 'Conversions',
  conversion_rate: 'Conversion rate',
};

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

const isPercent = (key: string) => /(_rate$|^share$|^percent$)/.test(key);
const isDuration = (key: string) => /^avg_.*(time|duration)/.test(key);

/** `{ currency, value }` money as text, e.g. "€1,234.50"; an unknown currency code is written before the amount. */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    return `${currency} ${decimal.format(value)}`;
  }
}

function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** A metric value as shown in a mail: percentages, durations and counts each in their form. */
export function formatMetric(key: string, value: string | number | null | undefined): string {
  if (key === 'referrer' && value === '') return 'Direct or unknown';
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '–';
  if (key === 'change') return `${value > 0 ? '+' : value < 0 ? '−' : ''}${decimal.format(Math.abs(value))}%`;
  if (isPercent(key)) return `${decimal.format(value)}%`;
  if (isDuration(key)) return formatDuration(value);
  return Number.isInteger(value) ? integer.format(value) : decimal.format(value);
}

/**
 * The cells of one row for `columns`. Rows of summary blocks name their
 * metric in `metric`, which then decides how `current` and `previous` read.
 */
export function rowCells(row: SvcQueryRow, columns: readonly string[]): string[] {
  const metric = typeof row.metric === 'string' ? row.metric : '';
  const metricKey = row.kind === 'percent' ? 'percent' : metric;
  return columns.map((column) => {
    const value = row[column];
    if (column === 'metric') return METRIC_LABELS[metric] ?? metric;
    if (column === 'current' || column === 'previous') return formatMetric(metricKey, value);
    return formatMetric(column, value);
  });
}
