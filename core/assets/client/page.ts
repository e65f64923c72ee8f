import { type Api, createApi } from './api';
import { DetailsView } from './details';
import { clear, el, notice } from './dom';
import { renderFilterChips } from './filter-chips';
import { type ChipFilter, viewFilter } from './filters';
import { PRESETS, type ViewState, presetRange, readState, siteToday, writeState } from './range';

/** One block of a data page: what it fetches and how it draws the answer into its element. */
export interface Section<T = unknown> {
  selector: string;
  /**
   * Which filter list of the page (`data-panel-filters`, from the data routes
   * themselves) this block follows; `default` when not named. A filter
   * outside it does not apply to the block, which then says so instead of
   * loading.
   */
  panel?: string;
  fetch(page: DataPage): Promise<T>;
  render(target: Element, data: T, page: DataPage): void;
}

/** Display names of filter keys on the chips and in the notes. */
export type FilterLabels = Record<string, { label: string; value?(v: string): string }>;

/** Names of the dimensions every page may meet (a share link can carry any of them); pages add and override. */
const DIMENSION_LABELS: FilterLabels = {
  page_url: { label: 'Page' },
  page_type: { label: 'Page type' },
  referrer: { label: 'Referrer' },
  host: { label: 'Domain' },
  browser: { label: 'Browser' },
  platform: { label: 'Platform' },
  device: { label: 'Device' },
  country: { label: 'Country', value: (v) => countryName(v) },
  region: { label: 'Region' },
  city: { label: 'City' },
  goal: { label: 'Goal' },
  campaign: { label: 'Campaign' },
  source: { label: 'Source' },
  medium: { label: 'Medium' },
  term: { label: 'Term' },
  content: { label: 'Content' },
  status: { label: 'Status' },
};

/** "The Device filter does not apply here." for the filters a block cannot take. */
export function doesNotApply(keys: readonly string[], labels: FilterLabels): string {
  const names = keys.map((k) => labels[k]?.label ?? k.replaceAll('_', ' '));
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `The ${list} filter${names.length === 1 ? ' does' : 's do'} not apply here.`;
}

/** What a share link lets its viewer change; null outside share sessions. */
interface ShareLimits {
  token: string;
  canChangeDate: boolean;
  canFilter: boolean;
}

/** The URL parameters the period and filters take (`writeState`). */
const VIEW_PARAMS = ['range', 'date_start', 'date_end', 'filters'];

/** Key under which dashboard pages remember the last view, so a new share link can start from it. */
export const LAST_VIEW_KEY = 'svc-last-view';

function shareLimits(): ShareLimits | null {
  const data = document.querySelector<HTMLElement>('main.content')?.dataset;
  if (!data?.shareToken) return null;
  let permissions: { can_change_date?: unknown; can_filter?: unknown } = {};
  try {
    permissions = JSON.parse(data.sharePermissions ?? '{}') as typeof permissions;
  } catch {
    permissions = {};
  }
  return { token: data.shareToken, canChangeDate: permissions.can_change_date === true, canFilter: permissions.can_filter === true };
}

/**
 * A dashboard page: the period picker (presets and custom range), filter
 * chips, and sections that reload together when either changes. The state
 * lives in the URL; every request goes through the one API module.
 */
export class DataPage {
  state: ViewState;
  readonly api: Api;
  /** Set in share sessions: the period and filters stay as the link fixed them unless it allows changes. */
  readonly share = shareLimits();
  private generation = 0;
  private readonly labels: FilterLabels;
  /** Panel name → the filters its data routes take (`data-panel-filters`); a panel not listed takes every filter. */
  private readonly panelFilters: Record<string, string[]>;
  private readonly details: DetailsView;

  constructor(
    readonly root: HTMLElement,
    private readonly sections: Section[],
    labels: FilterLabels = {},
    /** Parameters of the page's own that every request, CSV, details view and export sends (the sales currency). */
    private readonly extraParams: () => Record<string, unknown> = () => ({}),
  ) {
    this.labels = { ...DIMENSION_LABELS, ...labels };
    this.panelFilters = readPanelFilters(root.dataset.panelFilters);
    this.api = createApi();
    this.state = readState(location.search, siteToday(this.timezone));
    root.classList.toggle('filters-locked', this.share !== null && !this.share.canFilter);
    this.bindRange();
    this.details = new DetailsView(this, this.bindExports(), this.labels);
    this.details.restore();
  }

  /**
   * Wires the panels marked `data-export="<name>"`: a CSV button with all the
   * rows (of the datatable `<name>`, or of `data-export-path` with the
   * `data-export-query` parameters), and on datatables an "All rows" button opening the details
   * view. A `[data-export-all="<tab>"]` button downloads the tab's zip.
   */
  private bindExports(): Array<{ id: string; path: string; title: string }> {
    const sources = [];
    for (const block of this.root.querySelectorAll<HTMLElement>('[data-export]')) {
      const id = block.dataset.export!;
      const path = block.dataset.exportPath ?? `/data/datatable/${id}`;
      const extra = readJson(block.dataset.exportQuery);
      block.querySelector('button.export')?.addEventListener('click', () => void this.downloadCsv(block, path, this.params({ ...extra, details: 1, format: 'csv' }), id));
      if (!path.includes('/datatable/')) continue;
      const source = { id, path, title: block.querySelector('h2')?.textContent ?? id };
      sources.push(source);
      const open = el('button', { type: 'button', class: 'secondary details-open' }, 'All rows');
      open.addEventListener('click', () => this.details.open(source));
      const actions = el('span', { class: 'panel-actions' }, open);
      const csv = block.querySelector('header button.export');
      if (csv) {
        csv.replaceWith(actions);
        actions.append(csv);
      } else block.querySelector('header')?.append(actions);
    }
    for (const button of this.root.querySelectorAll<HTMLElement>('[data-export-all]')) {
      const tab = button.dataset.exportAll!;
      const box = button.parentElement ?? this.root;
      button.addEventListener('click', () => void this.download(box, `/data/export/${tab}`, this.params(), `${tab}-${this.state.dateStart}-${this.state.dateEnd}.zip`));
    }
    return sources;
  }

  get timezone(): string {
    return this.root.dataset.timezone ?? 'UTC';
  }

  params(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { date_start: this.state.dateStart, date_end: this.state.dateEnd, filters: this.state.filters, ...this.extraParams(), ...extra };
  }

  /** Filters the page by one value (a clicked row), in place of any filter on `key`; null removes it. */
  setFilter(key: string, value: string | null): void {
    this.changeFilter(key, value === null ? null : { operator: 'is', values: [value] });
  }

  /** Sets the filter on `key` (an operator and its values); null, or no values left, removes it. */
  changeFilter(key: string, filter: ChipFilter | null): void {
    if (this.share && !this.share.canFilter) return;
    const filters = { ...this.state.filters };
    const next = filter === null ? null : viewFilter(filter);
    if (next === null) delete filters[key];
    else filters[key] = next;
    this.state = { ...this.state, filters };
    void this.load();
  }

  /** Loads every section; answers of an older load that arrive late are dropped. */
  async load(): Promise<void> {
    const generation = ++this.generation;
    // The page's own parameters (`setOption`) stay beside the period and filters.
    const url = new URL(location.href);
    for (const key of VIEW_PARAMS) url.searchParams.delete(key);
    for (const [key, value] of new URLSearchParams(writeState(this.state))) url.searchParams.set(key, value);
    this.replaceUrl(url);
    this.renderChips();
    // Parts of the page outside the sections (the live count) follow the view through this event.
    this.root.dispatchEvent(new CustomEvent('svc:view'));
    const period = this.root.querySelector('[data-period]');
    if (period) period.textContent = `${this.state.dateStart} – ${this.state.dateEnd}`;
    this.details.reload();
    await Promise.all(this.sections.map((section) => this.loadSection(section, generation)));
  }

  /** Loads one section again (after a change only it shows, such as the metric a chart draws). */
  refresh(section: Section): Promise<void> {
    return this.loadSection(section, this.generation);
  }

  private async loadSection(section: Section, generation: number): Promise<void> {
    const target = this.root.querySelector(section.selector);
    if (!target) return;
    const box = target.closest('.card, .cards');
    const outside = this.inapplicable(section);
    box?.classList.toggle('filter-skipped', outside.length > 0);
    if (outside.length > 0) return clear(target, notice('empty', doesNotApply(outside, this.labels)));
    box?.setAttribute('aria-busy', 'true');
    if (!target.hasChildNodes() || target.querySelector('.state')) clear(target, notice('loading', 'Loading…'));
    try {
      const data = await section.fetch(this);
      if (generation === this.generation) section.render(target, data, this);
    } catch (err) {
      if (generation === this.generation) clear(target, notice('error', err instanceof Error ? err.message : 'Loading failed.'));
    } finally {
      box?.removeAttribute('aria-busy');
    }
  }

  /** A view parameter of the page's own (which metric a chart shows…), read from the URL. */
  option(key: string): string | null {
    return new URLSearchParams(location.search).get(key);
  }

  /** Keeps a view parameter of the page's own in the URL, so a reload, bookmark or share link shows the same view. */
  setOption(key: string, value: string | null): void {
    const url = new URL(location.href);
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
    this.replaceUrl(url);
  }

  private replaceUrl(url: URL): void {
    if (this.share) url.searchParams.set('svc_share_token', this.share.token);
    history.replaceState(null, '', url.search + location.hash);
    if (!this.share) rememberView();
  }

  /** The active filters a section's data routes do not take. */
  private inapplicable(section: Section): string[] {
    const accepted = this.panelFilters[section.panel ?? 'default'];
    return accepted ? Object.keys(this.state.filters).filter((key) => !accepted.includes(key)) : [];
  }

  /** Saves a block's table as `<name>-<start>-<end>.csv`; a refusal is shown in the block rather than passing unseen. */
  downloadCsv(block: HTMLElement, path: string, params: Record<string, unknown>, name: string): Promise<void> {
    return this.download(block, path, params, `${name}-${this.state.dateStart}-${this.state.dateEnd}.csv`);
  }

  /** Saves an answer as `filename`; a refusal is shown in `box` rather than passing unseen. */
  async download(box: Element, path: string, params: Record<string, unknown>, filename: string): Promise<void> {
    box.querySelector('.export-error')?.remove();
    try {
      const blob = await this.api.download(path, params);
      const link = el('a', { href: URL.createObjectURL(blob), download: filename });
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (err) {
      const problem = notice('error', `No ${filename.endsWith('.zip') ? 'export' : 'CSV'}: ${err instanceof Error ? err.message : 'the download failed.'}`);
      problem.classList.add('export-error');
      box.append(problem);
    }
  }

  private renderChips(): void {
    const bar = this.root.querySelector('[data-filters]');
    if (bar) renderFilterChips(bar, this.state.filters, this.labels, this.share !== null && !this.share.canFilter, (key, filter) => this.changeFilter(key, filter));
  }

  private bindRange(): void {
    const form = this.root.querySelector<HTMLFormElement>('[data-range]');
    if (!form) return;
    if (this.share && !this.share.canChangeDate) {
      form.hidden = true;
      return;
    }
    const select = form.querySelector<HTMLSelectElement>('select[name=preset]')!;
    const start = form.querySelector<HTMLInputElement>('input[name=date_start]')!;
    const end = form.querySelector<HTMLInputElement>('input[name=date_end]')!;
    clear(select, ...PRESETS.map((p) => el('option', { value: p.id }, p.label)));
    const sync = () => {
      select.value = this.state.preset;
      start.value = this.state.dateStart;
      end.value = this.state.dateEnd;
      form.classList.toggle('custom', this.state.preset === 'custom');
    };
    sync();
    // A refused range marks the start field invalid; any change to either day clears it, so Apply works again.
    for (const input of [start, end]) input.addEventListener('input', () => start.setCustomValidity(''));
    select.addEventListener('change', () => {
      if (select.value === 'custom') {
        form.classList.add('custom');
        return;
      }
      this.state = { ...this.state, preset: select.value, ...presetRange(select.value, siteToday(this.timezone)) };
      sync();
      void this.load();
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      start.setCustomValidity(start.value && end.value && start.value > end.value ? 'The start must not be after the end.' : '');
      if (!form.reportValidity()) return;
      this.state = { ...this.state, preset: 'custom', dateStart: start.value, dateEnd: end.value };
      sync();
      void this.load();
    });
  }
}

function readJson(raw: string | undefined): Record<string, unknown> {
  try {
    const parsed = JSON.parse(raw ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const readPanelFilters = (raw: string | undefined) => readJson(raw) as Record<string, string[]>;

function rememberView(): void {
  try {
    sessionStorage.setItem(LAST_VIEW_KEY, location.href);
  } catch {
    // Storage may be disabled; a new share link then starts from an empty view.
  }
}

/** A country's English name from its ISO code. */
export function countryName(code: string): string {
  try {
    return (code && new Intl.DisplayNames(['en'], { type: 'region' }).of(code)) || code;
  } catch {
    return code;
  }
}
