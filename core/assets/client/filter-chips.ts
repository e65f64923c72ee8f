import type { ViewFilter } from '../../admin/dashboard-url';
import { FILTER_OPERATORS, type FilterOperator } from '../../statistics/types';
import { clear, el } from './dom';
import { type ChipFilter, chipFilter, OPERATOR_LABELS } from './filters';
import type { FilterLabels } from './page';

/** "Page: /a" for `is` one value, "Page is not: /a, /b" otherwise; values in their display form. */
export function chipText(key: string, filter: ChipFilter, labels: FilterLabels): string {
  const label = labels[key];
  const shown = filter.values.map((v) => (label?.value ? label.value(v) : v)).join(', ');
  return `${label?.label ?? key}${filter.operator === 'is' ? '' : ` ${OPERATOR_LABELS[filter.operator]}`}: ${shown}`;
}

type OnChange = (key: string, filter: ChipFilter | null) => void;

/** An editable chip: its text opens a menu to switch the operator and add or remove values; × removes the filter. */
function editableChip(key: string, filter: ChipFilter, labels: FilterLabels, onChange: OnChange): HTMLElement {
  const name = labels[key]?.label ?? key;
  const operator = el('select', { name: 'operator', 'aria-label': `How the ${name} filter compares` }, ...FILTER_OPERATORS.map((op) => el('option', { value: op }, OPERATOR_LABELS[op])));
  operator.value = filter.operator;
  operator.addEventListener('change', () => onChange(key, { ...filter, operator: operator.value as FilterOperator }));
  const values = filter.values.map((value) => {
    const remove = el('button', { type: 'button', class: 'chip-value-remove', 'aria-label': `Remove ${value}` }, '×');
    remove.addEventListener('click', () => onChange(key, { ...filter, values: filter.values.filter((v) => v !== value) }));
    return el('li', {}, el('span', { class: 'chip-value' }, labels[key]?.value ? labels[key].value(value) : value), remove);
  });
  const input = el('input', { name: 'value', required: '', maxlength: '255', placeholder: 'Another value', 'aria-label': `Another ${name} value` });
  const add = el('form', { class: 'chip-add' }, input, el('button', { type: 'submit' }, 'Add'));
  add.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (value) onChange(key, { ...filter, values: [...filter.values, value] });
  });
  const menu = el('div', { class: 'chip-menu' }, el('label', {}, `${name} `, operator), el('ul', { class: 'chip-values' }, ...values), add);
  const remove = el('button', { type: 'button', class: 'chip-remove', title: 'Remove this filter', 'aria-label': `Remove the ${name} filter` }, '×');
  remove.addEventListener('click', () => onChange(key, null));
  return el(
    'span',
    { class: 'chip', 'data-filter-key': key },
    el('details', { class: 'chip-edit' }, el('summary', { title: 'Change this filter' }, chipText(key, filter, labels)), menu),
    remove,
  );
}

/**
 * The filter chips of a page. Locked (a share link that does not let its
 * viewer filter) they are text only; otherwise each can be edited, and a chip
 * whose menu was open stays open, with its control focused, when the bar is drawn again.
 */
export function renderFilterChips(bar: Element, filters: Readonly<Record<string, ViewFilter>>, labels: FilterLabels, locked: boolean, onChange: OnChange): void {
  const open = bar.querySelector<HTMLElement>('details[open]')?.closest<HTMLElement>('[data-filter-key]')?.dataset.filterKey;
  const focused = document.activeElement instanceof HTMLElement && bar.contains(document.activeElement) ? document.activeElement.getAttribute('name') : null;
  const entries = Object.entries(filters);
  clear(
    bar,
    ...entries.map(([key, raw]) => {
      const filter = chipFilter(raw);
      return locked ? el('span', { class: 'chip' }, chipText(key, filter, labels)) : editableChip(key, filter, labels, onChange);
    }),
  );
  bar.toggleAttribute('hidden', entries.length === 0);
  const chip = open ? [...bar.querySelectorAll<HTMLElement>('[data-filter-key]')].find((c) => c.dataset.filterKey === open) : undefined;
  if (!chip) return;
  chip.querySelector('details')!.open = true;
  if (focused) chip.querySelector<HTMLElement>(`[name="${focused}"]`)?.focus();
}
