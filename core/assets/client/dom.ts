/** Builds an element; text goes through textContent, never through HTML parsing. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string | null>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) if (child !== null) node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

export function clear(node: Element, ...children: Array<Node | string>): void {
  node.replaceChildren(...children);
}

/** A message block for empty, loading and error states. */
export function notice(kind: 'empty' | 'loading' | 'error', text: string): HTMLElement {
  return el('p', { class: `state ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

export function formatNumber(value: unknown): string {
  return typeof value === 'number' ? value.toLocaleString() : String(value ?? '');
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Columns from which a table of figures shows each row as a block on a phone. */
const WIDE_COLUMNS = 5;

/**
 * A table in a box that scrolls sideways when the table is wider than the
 * page (`table-wrap`); `data-table` tables keep their labels on one line,
 * and with many columns show each row as a block on a phone (the figure
 * cells carry their column's name in `data-label`).
 */
export function tableBox(head: HTMLTableRowElement | null, rows: HTMLTableRowElement[], className = 'data-table'): HTMLElement {
  const wide = className.includes('data-table') && (head?.cells.length ?? 0) >= WIDE_COLUMNS;
  return el('div', { class: 'table-wrap' }, el('table', { class: wide ? `${className} wide` : className }, ...(head ? [el('thead', {}, head)] : []), el('tbody', {}, ...rows)));
}

/** The label cell of a data row: one line, cut with an ellipsis when the figures need the room; the title holds the whole text. */
export function labelCell(content: HTMLElement | string, title: string): HTMLTableCellElement {
  const inner = typeof content === 'string' ? el('span', {}, content) : content;
  inner.setAttribute('title', title);
  return el('td', { class: 'label' }, inner);
}
