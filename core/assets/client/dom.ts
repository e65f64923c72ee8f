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
