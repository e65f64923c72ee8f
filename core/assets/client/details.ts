import { clear, el, labelCell, notice, tableBox } from './dom';
import type { DataPage, FilterLabels } from './page';
import { type Row, formatValue } from './widgets';

/** Rows on one page of a details view. */
const PAGE_SIZE = 50;

/** The answer of a datatable asked with details parameters. */
interface DetailsAnswer {
  rows: Row[];
  total: number;
  offset: number;
  limit: number;
  columns: string[];
  /** The columns that are dimensions (text), the first of them the row's label. */
  dimensions: string[];
}

/** A table's panel that can open its details: the datatable it reads and the heading it shows. */
export interface DetailsSource {
  id: string;
  path: string;
  title: string;
}

/** The URL parameters of an open details view, so it can be bookmarked and shared with the period and filters. */
const PARAMS = { id: 'details', search: 'details_search', orderBy: 'details_sort', order: 'details_order', page: 'details_page' } as const;

const METRIC_LABELS: Record<string, string> = { avg_time_on_page: 'Time on page', avg_session_duration: 'Session length', bounce_rate: 'Bounce rate', conversion_rate: 'Conversion rate' };

function columnLabel(key: string, labels: FilterLabels): string {
  const name = labels[key]?.label ?? METRIC_LABELS[key] ?? key.replaceAll('_', ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A cell as text: a money cell (`{ currency, value }`) as its value and currency. */
function cellText(value: unknown, key: string): string {
  if (typeof value === 'object' && value !== null && 'value' in value) {
    const money = value as { value: unknown; currency?: unknown };
    return `${formatValue(money.value)} ${typeof money.currency === 'string' ? money.currency : ''}`.trim();
  }
  return formatValue(value, formatOf(key));
}

const formatOf = (key: string) => (key.endsWith('_rate') ? 'percent' : key.startsWith('avg_') ? 'duration' : 'number');

/**
 * The details view of a panel: every row of its datatable in a dialog, with
 * a search, a sort on each column, pages and the CSV of the whole searched
 * and sorted set; the server does the searching, sorting and counting.
 */
export class DetailsView {
  private readonly dialog: HTMLDialogElement;
  private source: DetailsSource | null = null;
  private columns: string[] = [];
  private loading = 0;

  constructor(
    private readonly page: DataPage,
    private readonly sources: readonly DetailsSource[],
    private readonly labels: FilterLabels,
  ) {
    this.dialog = el('dialog', { class: 'details-dialog', 'aria-labelledby': 'details-title' });
    this.dialog.addEventListener('close', () => this.forget());
    page.root.append(this.dialog);
  }

  /** Opens the view the URL names, if any (a bookmark or a reload). */
  restore(): void {
    const source = this.sources.find((s) => s.id === this.page.option(PARAMS.id));
    if (source) this.open(source, false);
  }

  open(source: DetailsSource, fresh = true): void {
    this.source = source;
    if (fresh) for (const key of Object.values(PARAMS)) this.page.setOption(key, null);
    this.page.setOption(PARAMS.id, source.id);
    const search = el('input', { type: 'search', name: 'search', 'aria-label': `Search ${source.title}`, placeholder: 'Search', value: this.page.option(PARAMS.search) ?? '' });
    const form = el('form', { class: 'details-search', role: 'search' }, search, el('button', { type: 'submit' }, 'Search'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.page.setOption(PARAMS.search, search.value.trim() || null);
      this.page.setOption(PARAMS.page, null);
      void this.load();
    });
    const csv = el('button', { type: 'button', class: 'secondary details-csv' }, 'CSV of all rows');
    csv.addEventListener('click', () => void this.page.download(this.dialog, source.path, this.page.params({ ...this.query(), format: 'csv' }), `${source.id}-${this.page.state.dateStart}-${this.page.state.dateEnd}.csv`));
    const close = el('button', { type: 'button', class: 'secondary details-close', 'aria-label': 'Close' }, 'Close');
    close.addEventListener('click', () => this.dialog.close());
    clear(
      this.dialog,
      el('header', {}, el('h2', { id: 'details-title' }, source.title), close),
      el('div', { class: 'details-tools' }, form, csv),
      el('div', { class: 'details-body' }),
      el('nav', { class: 'details-pager', 'aria-label': 'Pages' }),
    );
    if (!this.dialog.open) this.dialog.showModal();
    void this.load();
  }

  /** Loads the current page again (after the period or filters changed). */
  reload(): void {
    if (this.dialog.open) void this.load();
  }

  private query(): Record<string, unknown> {
    return { search: this.page.option(PARAMS.search) ?? undefined, order_by: this.page.option(PARAMS.orderBy) ?? undefined, order: this.page.option(PARAMS.order) ?? undefined };
  }

  private pageNumber(): number {
    const n = Number(this.page.option(PARAMS.page) ?? '1');
    return Number.isInteger(n) && n >= 1 ? n : 1;
  }

  private async load(): Promise<void> {
    const source = this.source;
    if (!source) return;
    const body = this.dialog.querySelector('.details-body')!;
    const generation = ++this.loading;
    this.dialog.setAttribute('aria-busy', 'true');
    try {
      const answer = await this.page.api.get<DetailsAnswer>(source.path, this.page.params({ ...this.query(), details: 1, limit: PAGE_SIZE, offset: (this.pageNumber() - 1) * PAGE_SIZE }));
      if (generation !== this.loading) return;
      this.columns = answer.columns;
      this.render(body, answer);
    } catch (err) {
      if (generation === this.loading) clear(body, notice('error', err instanceof Error ? err.message : 'Loading failed.'));
    } finally {
      if (generation === this.loading) this.dialog.removeAttribute('aria-busy');
    }
  }

  private render(body: Element, answer: DetailsAnswer): void {
    const [dimension, ...others] = this.columns;
    const texts = new Set(answer.dimensions);
    const orderBy = this.page.option(PARAMS.orderBy);
    const order = this.page.option(PARAMS.order) === 'asc' ? 'asc' : 'desc';
    const head = el(
      'tr',
      {},
      ...this.columns.map((key, i) => {
        const sorted = key === orderBy;
        const button = el('button', { type: 'button', class: 'sort', 'data-sort': key }, columnLabel(key, this.labels), sorted ? (order === 'asc' ? ' ▲' : ' ▼') : '');
        // A new column sorts text A to Z and figures from the largest; the same column again turns the order round.
        button.addEventListener('click', () => this.sortBy(key, sorted ? (order === 'asc' ? 'desc' : 'asc') : i === 0 ? 'asc' : 'desc'));
        return el('th', { scope: 'col', class: texts.has(key) ? '' : 'num', 'aria-sort': sorted ? (order === 'asc' ? 'ascending' : 'descending') : 'none' }, button);
      }),
    );
    const rows = answer.rows.map((row) => {
      const value = String(row[dimension ?? ''] ?? '');
      const text = (dimension && this.labels[dimension]?.value?.(value)) || value || '(none)';
      const cells = others.map((key) => {
        const attrs = { class: texts.has(key) ? 'text' : 'num', 'data-label': columnLabel(key, this.labels) };
        return el('td', attrs, texts.has(key) ? String(row[key] ?? '') : cellText(row[key], key));
      });
      return el('tr', {}, labelCell(text, text), ...cells);
    });
    clear(body, answer.total === 0 ? notice('empty', 'No rows match.') : tableBox(head, rows, 'data-table details-table'));
    this.renderSortSelect(orderBy, order);
    this.renderPager(answer);
  }

  /** The sort as a list too: a phone shows the rows of a wide table as blocks, without their column heads. */
  private renderSortSelect(orderBy: string | null, order: 'asc' | 'desc'): void {
    const select = el('select', { name: 'sort', 'aria-label': 'Sort by' }, el('option', { value: '' }, 'Sort: as listed'));
    for (const key of this.columns) {
      for (const [way, arrow] of [['desc', '↓'], ['asc', '↑']] as const) select.append(el('option', { value: `${key}:${way}` }, `${columnLabel(key, this.labels)} ${arrow}`));
    }
    select.value = orderBy ? `${orderBy}:${order}` : '';
    select.addEventListener('change', () => {
      const [key, way] = select.value.split(':');
      if (key && (way === 'asc' || way === 'desc')) this.sortBy(key, way);
    });
    const old = this.dialog.querySelector('select[name=sort]');
    if (old) old.replaceWith(select);
    else this.dialog.querySelector('.details-search')?.after(select);
  }

  private renderPager(answer: DetailsAnswer): void {
    const pager = this.dialog.querySelector('.details-pager')!;
    const pages = Math.max(1, Math.ceil(answer.total / PAGE_SIZE));
    const current = Math.min(this.pageNumber(), pages);
    const go = (n: number) => {
      this.page.setOption(PARAMS.page, n === 1 ? null : String(n));
      void this.load();
    };
    const previous = el('button', { type: 'button', class: 'secondary', 'data-page': 'previous' }, 'Previous');
    const next = el('button', { type: 'button', class: 'secondary', 'data-page': 'next' }, 'Next');
    previous.toggleAttribute('disabled', current <= 1);
    next.toggleAttribute('disabled', current >= pages);
    previous.addEventListener('click', () => go(current - 1));
    next.addEventListener('click', () => go(current + 1));
    const first = answer.total === 0 ? 0 : answer.offset + 1;
    const status = el('span', { class: 'details-count', role: 'status' }, `Rows ${first}–${answer.offset + answer.rows.length} of ${answer.total}`);
    clear(pager, previous, status, next);
  }

  private sortBy(key: string, order: 'asc' | 'desc'): void {
    this.page.setOption(PARAMS.orderBy, key);
    this.page.setOption(PARAMS.order, order);
    this.page.setOption(PARAMS.page, null);
    void this.load();
  }

  private forget(): void {
    this.source = null;
    for (const key of Object.values(PARAMS)) this.page.setOption(key, null);
  }
}
