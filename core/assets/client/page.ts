import { type Api, createApi } from './api';
import { clear, el, notice } from './dom';
import { PRESETS, type ViewState, presetRange, readState, siteToday, writeState } from './range';

/** One block of a data page: what it fetches and how it draws the answer into its element. */
export interface Section<T = unknown> {
  selector: string;
  fetch(page: DataPage): Promise<T>;
  render(target: Element, data: T, page: DataPage): void;
}

/** Display names of filter keys on the chips. */
export type FilterLabels = Record<string, { label: string; value?(v: string): string }>;

/**
 * A dashboard page: the period picker (presets and custom range), filter
 * chips, and sections that reload together when either changes. The state
 * lives in the URL; every request goes through the one API module.
 */
export class DataPage {
  state: ViewState;
  readonly api: Api;
  private generation = 0;

  constructor(
    readonly root: HTMLElement,
    private readonly sections: Section[],
    private readonly labels: FilterLabels = {},
  ) {
    this.api = createApi();
    this.state = readState(location.search, siteToday(this.timezone));
    this.bindRange();
    for (const block of root.querySelectorAll<HTMLElement>('[data-export]')) {
      block.querySelector('button.export')?.addEventListener('click', () => void this.exportCsv(block.dataset.export!));
    }
  }

  get timezone(): string {
    return this.root.dataset.timezone ?? 'UTC';
  }

  params(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { date_start: this.state.dateStart, date_end: this.state.dateEnd, filters: this.state.filters, ...extra };
  }

  setFilter(key: string, value: string | null): void {
    const filters = { ...this.state.filters };
    if (value === null) delete filters[key];
    else filters[key] = value;
    this.state = { ...this.state, filters };
    void this.load();
  }

  /** Loads every section; answers of an older load that arrive late are dropped. */
  async load(): Promise<void> {
    const generation = ++this.generation;
    history.replaceState(null, '', writeState(this.state));
    this.renderChips();
    const period = this.root.querySelector('[data-period]');
    if (period) period.textContent = `${this.state.dateStart} – ${this.state.dateEnd}`;
    await Promise.all(
      this.sections.map(async (section) => {
        const target = this.root.querySelector(section.selector);
        if (!target) return;
        const box = target.closest('.card, .cards');
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
      }),
    );
  }

  async exportCsv(id: string): Promise<void> {
    const blob = await this.api.download(`/data/datatable/${id}`, this.params({ format: 'csv' }));
    const link = el('a', { href: URL.createObjectURL(blob), download: `${id}-${this.state.dateStart}-${this.state.dateEnd}.csv` });
    link.click();
    URL.revokeObjectURL(link.href);
  }

  private renderChips(): void {
    const bar = this.root.querySelector('[data-filters]');
    if (!bar) return;
    const entries = Object.entries(this.state.filters);
    clear(
      bar,
      ...entries.map(([key, value]) => {
        const label = this.labels[key];
        const chip = el('button', { type: 'button', class: 'chip', title: 'Remove this filter' }, `${label?.label ?? key}: ${label?.value ? label.value(value) : value} ×`);
        chip.addEventListener('click', () => this.setFilter(key, null));
        return chip;
      }),
    );
    bar.toggleAttribute('hidden', entries.length === 0);
  }

  private bindRange(): void {
    const form = this.root.querySelector<HTMLFormElement>('[data-range]');
    if (!form) return;
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

/** A country's English name from its ISO code. */
export function countryName(code: string): string {
  try {
    return (code && new Intl.DisplayNames(['en'], { type: 'region' }).of(code)) || code;
  } catch {
    return code;
  }
}
