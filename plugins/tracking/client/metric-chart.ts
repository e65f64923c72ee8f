import { type CardPick, type CardSpec, clear, type DataPage, el, notice, type Section, type Series, TrafficChart } from '../../../core/assets/client';

/** The `insights` answer: the series of the period and, when asked, of the period it is compared with. */
interface Insights extends Series {
  comparison?: Series & { date_start: string; date_end: string };
}

/** An answer with the number of the request it answers. */
type Answer = Insights & { request: number };

/** The chart's intervals, each offered only where it draws a sensible number of points. */
const INTERVALS: ReadonlyArray<{ id: string; label: string; fits(days: number): boolean }> = [
  { id: 'hour', label: 'Hourly', fits: (days) => days <= 7 },
  { id: 'day', label: 'Daily', fits: (days) => days >= 2 && days <= 366 },
  { id: 'week', label: 'Weekly', fits: (days) => days >= 14 },
  { id: 'month', label: 'Monthly', fits: (days) => days >= 60 },
];
const COMPARISONS = ['previous', 'year'];

/** Number of days from `start` to `end` (YYYY-MM-DD), both counted. */
const daysOf = (start: string, end: string) => Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;

/**
 * The dashboard chart of one metric, picked by clicking its card, with an
 * optional lighter line for the previous period or the same days a year
 * earlier, at an interval that suits the period. The metric, comparison and
 * interval live in the URL (`metric`, `compare`, `interval`) beside the
 * period and filters.
 */
export class MetricChart {
  readonly section: Section<Answer>;
  private readonly chart: TrafficChart;
  private readonly title: Element;
  private readonly compareSelect: HTMLSelectElement;
  private readonly intervalSelect: HTMLSelectElement;
  /** Number of the latest request; an older answer arriving late is not drawn. */
  private latest = 0;

  constructor(
    private readonly box: HTMLElement,
    private readonly cards: CardSpec[],
    empty: string,
  ) {
    this.chart = new TrafficChart(box.querySelector<HTMLCanvasElement>('[data-chart]')!);
    this.title = box.querySelector('[data-chart-title]')!;
    this.compareSelect = box.querySelector<HTMLSelectElement>('[data-chart-compare]')!;
    this.intervalSelect = box.querySelector<HTMLSelectElement>('[data-chart-interval]')!;
    this.section = {
      selector: '[data-chart-state]',
      fetch: async (page) => {
        const request = ++this.latest;
        const data = await page.api.get<Insights>('/data/insights', page.params(this.query(page)));
        return { ...data, request };
      },
      render: (target, data, page) => {
        if (data.request !== this.latest) return;
        // The period is empty when nobody visited, whatever the metric charted (no conversions is not no visits).
        const nothing = (data.datasets.visitors ?? []).every((v) => v === 0);
        clear(target, ...(nothing ? [notice('empty', empty)] : []));
        const metric = this.metric(page);
        const only = (datasets: Record<string, number[]>) => ({ [metric]: datasets[metric] ?? [] });
        const overlay = data.comparison && { label: `${data.comparison.date_start} – ${data.comparison.date_end}`, datasets: only(data.comparison.datasets) };
        this.chart.show({ labels: data.labels, datasets: only(data.datasets) }, overlay, this.cards.find((c) => c.metric === metric)?.format);
      },
    };
  }

  /** Lets the comparison and interval selects change the chart of `page`. */
  attach(page: DataPage): void {
    this.compareSelect.addEventListener('change', () => this.change(page, 'compare', this.compareSelect.value));
    this.intervalSelect.addEventListener('change', () => this.change(page, 'interval', this.intervalSelect.value));
  }

  /** The card choice: the selected metric, and picking another charts it. */
  pick(page: DataPage): CardPick {
    return { selected: this.metric(page), onSelect: (metric) => this.change(page, 'metric', metric) };
  }

  private metric(page: DataPage): string {
    const named = page.option('metric');
    return this.cards.some((c) => c.metric === named) ? named! : this.cards[0]!.metric;
  }

  private compare(page: DataPage): string {
    const named = page.option('compare') ?? '';
    return COMPARISONS.includes(named) ? named : '';
  }

  /** The intervals the period allows; the URL's interval counts only when among them. */
  private intervals(page: DataPage) {
    return INTERVALS.filter((i) => i.fits(daysOf(page.state.dateStart, page.state.dateEnd)));
  }

  private interval(page: DataPage): string {
    const named = page.option('interval') ?? '';
    return this.intervals(page).some((i) => i.id === named) ? named : '';
  }

  /** The request's parameters, after bringing the title, the controls and the cards up to date. */
  private query(page: DataPage): Record<string, unknown> {
    const metric = this.metric(page);
    const compare = this.compare(page);
    const interval = this.interval(page);
    const label = this.cards.find((c) => c.metric === metric)!.label;
    this.title.textContent = label;
    this.box.querySelector('[data-chart]')!.setAttribute('aria-label', `${label} over the period`);
    for (const card of page.root.querySelectorAll('[data-compare] button[data-metric]')) {
      card.setAttribute('aria-pressed', String(card.getAttribute('data-metric') === metric));
    }
    this.compareSelect.value = compare;
    clear(this.intervalSelect, el('option', { value: '' }, 'Automatic'), ...this.intervals(page).map((i) => el('option', { value: i.id }, i.label)));
    this.intervalSelect.value = interval;
    return { metrics: [...new Set([metric, 'visitors'])], ...(interval && { group_by: interval }), ...(compare && { compare }) };
  }

  private change(page: DataPage, key: string, value: string): void {
    page.setOption(key, value || null);
    void page.refresh(this.section as Section);
  }
}
