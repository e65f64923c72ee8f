import { clear, el, formatDuration, formatNumber, labelCell, notice, tableBox } from './dom';

export type Row = Record<string, string | number>;

export interface Column {
  key: string;
  label: string;
  format?: 'number' | 'percent' | 'duration';
}

export interface TableSpec {
  title: string;
  /** Dimension the first column holds; clicking a row filters by it. */
  dimension: string;
  columns: Column[];
  /** Shown when there are no rows. */
  empty: string;
  /** Display text of a dimension value (e.g. country names). */
  label?(value: string): string;
}

export function formatValue(value: unknown, format: Column['format'] = 'number'): string {
  if (format === 'percent') return `${formatNumber(value)} %`;
  if (format === 'duration') return formatDuration(Number(value));
  return formatNumber(value);
}

/** A ranked table; with `onFilter`, rows with a value filter the page when clicked (or activated with the keyboard). */
export function renderTable(target: Element, spec: TableSpec, rows: Row[], onFilter: ((dimension: string, value: string) => void) | null): void {
  if (rows.length === 0) {
    clear(target, notice('empty', spec.empty));
    return;
  }
  const head = el('tr', {}, el('th', { scope: 'col' }, spec.title), ...spec.columns.map((c) => el('th', { scope: 'col', class: 'num' }, c.label)));
  const body = rows.map((row) => {
    const value = String(row[spec.dimension] ?? '');
    const text = spec.label ? spec.label(value) : value;
    const first =
      value && onFilter
        ? el('button', { type: 'button', class: 'row-filter' }, text)
        : el('span', { class: value ? '' : 'muted' }, text || '(none)');
    if (value && onFilter) first.addEventListener('click', () => onFilter(spec.dimension, value));
    const cell = labelCell(first, value && onFilter ? `Filter by ${text}` : text || '(none)');
    return el('tr', {}, cell, ...spec.columns.map((c) => el('td', { class: 'num', 'data-label': c.label }, formatValue(row[c.key], c.format))));
  });
  clear(target, tableBox(head, body));
}

export interface CardSpec {
  metric: string;
  label: string;
  format?: Column['format'];
  /** True when a lower value is the better one (bounce rate). */
  lowerIsBetter?: boolean;
}

export interface Comparison {
  current: Row;
  previous: Row;
  change: Record<string, number | null>;
}

/** Which card is selected, and what picking one does (the dashboard charts the picked metric). */
export interface CardPick {
  selected: string;
  onSelect(metric: string): void;
}

/** Metric cards with the change against the previous period; with `pick`, buttons marking the selected one with `aria-pressed`. */
export function renderCards(target: Element, specs: CardSpec[], data: Comparison, pick?: CardPick): void {
  clear(
    target,
    ...specs.map((spec) => {
      const change = data.change[spec.metric];
      const good = change === null || change === undefined || change === 0 ? 'flat' : change > 0 !== Boolean(spec.lowerIsBetter) ? 'up' : 'down';
      const badge =
        change === null || change === undefined
          ? el('span', { class: 'change flat' }, 'no earlier data')
          : el('span', { class: `change ${good}` }, `${change > 0 ? '+' : ''}${change} %`);
      const parts = [
        el('span', { class: 'metric-label' }, spec.label),
        el('strong', { class: 'metric-value' }, formatValue(data.current[spec.metric] ?? 0, spec.format)),
        badge,
        el('span', { class: 'metric-previous' }, `previous: ${formatValue(data.previous[spec.metric] ?? 0, spec.format)}`),
      ];
      if (!pick) return el('div', { class: 'metric-card', 'data-metric': spec.metric }, ...parts);
      const card = el('button', { type: 'button', class: 'metric-card', 'data-metric': spec.metric, 'aria-pressed': String(spec.metric === pick.selected) }, ...parts);
      card.addEventListener('click', () => pick.onSelect(spec.metric));
      return card;
    }),
  );
}
