import { clear, el, formatNumber, labelCell, notice, tableBox } from '../../../core/assets/client';
import { money, percent } from './format';

export interface Card {
  id: string;
  label: string;
  current: string;
  previous: string | null;
  change: number | null;
  lowerIsBetter?: boolean;
}

/** Figure cards with their change against the previous period. */
export function renderCards(target: Element, cards: Card[]): void {
  clear(
    target,
    ...cards.map((c) => {
      const direction = c.change === null || c.change === 0 ? 'flat' : c.change > 0 !== Boolean(c.lowerIsBetter) ? 'up' : 'down';
      return el(
        'div',
        { class: 'metric-card', 'data-metric': c.id },
        el('span', { class: 'metric-label' }, c.label),
        el('strong', { class: 'metric-value' }, c.current),
        c.change === null ? el('span', { class: 'change flat' }, 'no earlier data') : el('span', { class: `change ${direction}` }, `${c.change > 0 ? '+' : ''}${c.change} %`),
        c.previous === null ? null : el('span', { class: 'metric-previous' }, `previous: ${c.previous}`),
      );
    }),
  );
}

export type Cell = string | number | { currency: string; value: number };

export interface TableColumn {
  key: string;
  label: string;
  format?: 'number' | 'money' | 'percent' | 'text';
}

function cellText(value: unknown, format: TableColumn['format']): string {
  if (format === 'money' && value && typeof value === 'object') {
    const m = value as { currency: string; value: number };
    return money(m.value, m.currency);
  }
  if (format === 'percent') return percent(value);
  if (format === 'text') return String(value ?? '');
  return formatNumber(value);
}

/** A plain table of rows; the first column is text, the others right-aligned figures. */
export function renderRows(target: Element, columns: TableColumn[], rows: Array<Record<string, unknown>>, empty: string): void {
  if (rows.length === 0) {
    clear(target, notice('empty', empty));
    return;
  }
  const head = el('tr', {}, ...columns.map((c, i) => el('th', { scope: 'col', class: i === 0 ? '' : 'num' }, c.label)));
  const body = rows.map((row) => {
    const [first, ...figures] = columns;
    const label = cellText(row[first!.key], 'text');
    return el('tr', {}, labelCell(label, label), ...figures.map((c) => el('td', { class: 'num', 'data-label': c.label }, cellText(row[c.key], c.format))));
  });
  clear(target, tableBox(head, body));
}
