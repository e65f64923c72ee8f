import { type Api, createApi } from './api';
import { type Series, TrafficChart } from './chart';
import { clear, el, notice } from './dom';
import { PRESETS, type ViewState, presetRange, readState, siteToday, writeState } from './range';
import { type CardSpec, type Comparison, type Row, type TableSpec, renderCards, renderTable } from './widgets';

const CARDS: CardSpec[] = [
  { metric: 'visitors', label: 'Visitors' },
  { metric: 'pageviews', label: 'Pageviews' },
  { metric: 'sessions', label: 'Sessions' },
  { metric: 'bounce_rate', label: 'Bounce rate', format: 'percent', lowerIsBetter: true },
  { metric: 'avg_time_on_page', label: 'Time on page', format: 'duration' },
  { metric: 'conversions', label: 'Conversions' },
];

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
const countryName = (code: string) => {
  try {
    return (code && regionNames?.of(code)) || code;
  } catch {
    return code;
  }
};

const NO_DATA = 'No visits in this period. Add the tracking script to your site, or choose a longer period.';

/** Tables of the tab: endpoint, spec, and the dimension each row filters by. */
const TABLES: Array<{ key: string; path: string; params?: Record<string, unknown>; spec: TableSpec }> = [
  { key: 'pages', path: '/data/datatable/pages', spec: { title: 'Page', dimension: 'page_url', empty: NO_DATA, columns: [
    { key: 'pageviews', label: 'Pageviews' }, { key: 'sessions', label: 'Sessions' }, { key: 'avg_time_on_page', label: 'Time', format: 'duration' }] } },
  { key: 'referrers', path: '/data/datatable/referrers', spec: { title: 'Referrer', dimension: 'referrer', empty: 'No visits came from other sites in this period.',
    label: (v) => v || 'Direct / none', columns: [{ key: 'sessions', label: 'Sessions' }, { key: 'bounce_rate', label: 'Bounce', format: 'percent' }] } },
  { key: 'devices', path: '/data/devices', spec: { title: 'Device', dimension: 'device', empty: NO_DATA, columns: [
    { key: 'sessions', label: 'Sessions' }, { key: 'share', label: 'Share', format: 'percent' }] } },
  { key: 'browsers', path: '/data/devices', params: { group_by: 'browser' }, spec: { title: 'Browser', dimension: 'browser', empty: NO_DATA, columns: [
    { key: 'sessions', label: 'Sessions' }, { key: 'share', label: 'Share', format: 'percent' }] } },
  { key: 'countries', path: '/data/datatable/countries', spec: { title: 'Country', dimension: 'country', empty: 'No locations recorded in this period.',
    label: countryName, columns: [{ key: 'sessions', label: 'Sessions' }, { key: 'pageviews', label: 'Pageviews' }] } },
  { key: 'not-found-pages', path: '/data/datatable/not-found-pages', spec: { title: 'Missing page', dimension: 'page_url',
    empty: 'No visitor hit a missing page in this period.', columns: [{ key: 'pageviews', label: 'Hits' }] } },
];

const FILTER_LABELS: Record<string, string> = { page_url: 'Page', referrer: 'Referrer', device: 'Device', browser: 'Browser', country: 'Country', goal: 'Goal' };

class Dashboard {
  private state: ViewState;
  private readonly chart: TrafficChart;
  private generation = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: Api,
    private readonly timezone: string,
  ) {
    this.state = readState(location.search, siteToday(timezone));
    this.chart = new TrafficChart(root.querySelector<HTMLCanvasElement>('[data-chart]')!);
    this.buildRangeForm();
    for (const section of root.querySelectorAll<HTMLElement>('[data-export]')) {
      section.querySelector('button.export')?.addEventListener('click', () => this.exportCsv(section.dataset.export!));
    }
  }

  private params(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { date_start: this.state.dateStart, date_end: this.state.dateEnd, filters: this.state.filters, ...extra };
  }

  private buildRangeForm(): void {
    const form = this.root.querySelector<HTMLFormElement>('[data-range]')!;
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
      if (!start.value || !end.value || start.value > end.value) {
        start.setCustomValidity(start.value > end.value ? 'The start must not be after the end.' : '');
        form.reportValidity();
        return;
      }
      start.setCustomValidity('');
      this.state = { ...this.state, preset: 'custom', dateStart: start.value, dateEnd: end.value };
      sync();
      void this.load();
    });
  }

  private renderFilters(): void {
    const bar = this.root.querySelector('[data-filters]')!;
    const entries = Object.entries(this.state.filters);
    clear(
      bar,
      ...entries.map(([key, value]) => {
        const remove = el('button', { type: 'button', class: 'chip', title: 'Remove this filter' }, `${FILTER_LABELS[key] ?? key}: ${key === 'country' ? countryName(value) : value} ×`);
        remove.addEventListener('click', () => this.setFilter(key, null));
        return remove;
      }),
    );
    bar.toggleAttribute('hidden', entries.length === 0);
  }

  setFilter(key: string, value: string | null): void {
    const filters = { ...this.state.filters };
    if (value === null) delete filters[key];
    else filters[key] = value;
    this.state = { ...this.state, filters };
    void this.load();
  }

  /** Loads every section; answers of an older load that arrive late are ignored. */
  async load(): Promise<void> {
    const generation = ++this.generation;
    history.replaceState(null, '', writeState(this.state));
    this.renderFilters();
    this.root.querySelector('[data-period]')!.textContent = `${this.state.dateStart} – ${this.state.dateEnd}`;
    const current = () => generation === this.generation;
    const section = async <T>(selector: string, fetcher: () => Promise<T>, render: (target: Element, data: T) => void) => {
      const target = this.root.querySelector(selector)!;
      target.closest('.card, .cards')?.setAttribute('aria-busy', 'true');
      if (!target.hasChildNodes() || target.querySelector('.state')) clear(target, notice('loading', 'Loading…'));
      try {
        const data = await fetcher();
        if (current()) render(target, data);
      } catch (err) {
        if (current()) clear(target, notice('error', err instanceof Error ? err.message : 'Loading failed.'));
      } finally {
        target.closest('.card, .cards')?.removeAttribute('aria-busy');
      }
    };
    const onFilter = (dimension: string, value: string) => this.setFilter(dimension, value);
    await Promise.all([
      section('[data-compare]', () => this.api.get<Comparison>('/data/compare', this.params()), (t, d) => renderCards(t, CARDS, d)),
      section('[data-chart-state]', () => this.api.get<Series>('/data/insights', this.params({ metrics: ['visitors', 'pageviews'] })), (t, d) => {
        const empty = Object.values(d.datasets).every((values) => values.every((v) => v === 0));
        clear(t, ...(empty ? [notice('empty', NO_DATA)] : []));
        this.chart.show(d);
      }),
      ...TABLES.map((table) =>
        section(`[data-table="${table.key}"]`, () => this.api.get<Row[]>(table.path, this.params({ limit: 10, ...table.params })), (t, rows) =>
          renderTable(t, table.spec, rows, onFilter),
        ),
      ),
      section('[data-goals]', () => this.api.get<Row[]>('/data/goals', this.params()), (t, goals) =>
        renderTable(t, { title: 'Goal', dimension: 'goal_id', label: (id) => String(goals.find((g) => String(g.goal_id) === id)?.title ?? id),
          empty: 'No goals yet. Goals count visitors who click a button, open a page or trigger an event.',
          columns: [{ key: 'conversions', label: 'Conversions' }, { key: 'conversion_rate', label: 'Rate', format: 'percent' }] }, goals, (_d, v) => this.setFilter('goal', v)),
      ),
    ]);
  }

  private async exportCsv(id: string): Promise<void> {
    const blob = await this.api.download(`/data/datatable/${id}`, this.params({ format: 'csv' }));
    const link = el('a', { href: URL.createObjectURL(blob), download: `${id}-${this.state.dateStart}-${this.state.dateEnd}.csv` });
    link.click();
    URL.revokeObjectURL(link.href);
  }

  /** The live visitor count, refreshed every 30 seconds while the page is visible. */
  startLive(): void {
    const target = this.root.querySelector('[data-live]')!;
    const refresh = async () => {
      if (document.hidden) return;
      try {
        target.textContent = String((await this.api.get<{ count: number }>('/data/live-visitors')).count);
      } catch {
        target.textContent = '–';
      }
    };
    void refresh();
    setInterval(refresh, 30_000);
  }
}

const root = document.getElementById('svc-stats');
if (root) {
  const dashboard = new Dashboard(root, createApi(), root.dataset.timezone ?? 'UTC');
  void dashboard.load();
  dashboard.startLive();
}
