import {
  type CardSpec,
  clear,
  type Comparison,
  countryName,
  createApi,
  el,
  formatValue,
  labelCell,
  notice,
  renderCards,
  renderTable,
  type Row,
  type Series,
  tableBox,
  TrafficChart,
} from '../../../core/assets/client';
import { type StoryBlock, storyBlock } from '../shared/blocks';

/**
 * The story dashboard: each block of the shared report reads its data route
 * with the block's period and filters (the server forces both), through the
 * one API module, which sends the share token header.
 */
const CARDS: CardSpec[] = [
  { metric: 'visitors', label: 'Visitors' },
  { metric: 'pageviews', label: 'Pageviews' },
  { metric: 'sessions', label: 'Sessions' },
  { metric: 'bounce_rate', label: 'Bounce rate', format: 'percent', lowerIsBetter: true },
];
const EMPTY = 'No data for this period.';

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {});
const money = (period: Obj, key: string) =>
  typeof period[key] === 'number' && typeof period.currency === 'string'
    ? new Intl.NumberFormat(undefined, { style: 'currency', currency: period.currency }).format(period[key])
    : formatValue(period[key] ?? '');

/** How each field of the ecommerce `sales` answer reads. */
const SALES_VALUES: Record<string, (period: Obj) => string> = {
  revenue: (p) => money(p, 'total_revenue'),
  'average-order': (p) => money(p, 'average_order_value'),
  'conversion-rate': (p) => formatValue(p.conversion_rate ?? 0, 'percent'),
  'abandonment-rate': (p) => formatValue(p.abandoned_rate ?? 0, 'percent'),
};

const root = document.getElementById('svc-story');
if (root) {
  const api = createApi(root);
  root.querySelector('[data-print]')?.addEventListener('click', () => window.print());

  const fill = async (section: HTMLElement, spec: StoryBlock, target: Element) => {
    const params: Record<string, unknown> = {
      date_start: section.dataset.dateStart,
      date_end: section.dataset.dateEnd,
      filters: section.dataset.filters,
    };
    switch (spec.kind) {
      case 'compare': {
        const [comparison, series] = await Promise.all([
          api.get<Comparison>(spec.path, params),
          api.get<Series>(spec.chart, { ...params, metrics: 'visitors,pageviews' }),
        ]);
        const cards = el('div', { class: 'cards' });
        const canvas = el('canvas', { role: 'img', 'aria-label': 'Visitors and pageviews over the period' });
        clear(target, cards, el('div', { class: 'chart-box' }, canvas));
        renderCards(cards, CARDS, comparison);
        new TrafficChart(canvas).show(series);
        return;
      }
      case 'table': {
        const rows = await api.get<Row[]>(spec.path, { ...params, limit: 10, ...spec.params });
        const label = spec.dimension === 'country' ? countryName : spec.dimension === 'referrer' ? (v: string) => v || 'Direct / none' : undefined;
        renderTable(target, { title: spec.dimensionLabel, dimension: spec.dimension, columns: spec.columns, empty: EMPTY, label }, rows, null);
        return;
      }
      case 'sales': {
        const data = obj(await api.get<unknown>(spec.path, params));
        const rows = Object.entries(SALES_VALUES)
          .filter(([field]) => field in data)
          .map(([field, value]) => {
            const e = obj(data[field]);
            return el('tr', {}, el('td', {}, String(e.label ?? field)), el('td', { class: 'num' }, value(obj(e.current))), el('td', { class: 'num' }, value(obj(e.previous))));
          });
        const head = el('tr', {}, el('th', { scope: 'col' }, ''), el('th', { scope: 'col', class: 'num' }, 'This period'), el('th', { scope: 'col', class: 'num' }, 'Previous period'));
        clear(target, rows.length ? tableBox(head, rows) : notice('empty', EMPTY));
        return;
      }
      case 'top': {
        const data = obj(await api.get<unknown>(spec.path, params));
        const rows = Object.values(data).map((entry) => {
          const e = obj(entry);
          const current = obj(e.current);
          const name = String(current.product_name ?? current.campaign_name ?? current.device_name ?? (current.country_code ? countryName(String(current.country_code)) : ''));
          return el('tr', {}, el('td', {}, String(e.label ?? '')), labelCell(name || '–', name), el('td', { class: 'num' }, money(current, 'total_revenue')));
        });
        clear(target, rows.length ? tableBox(null, rows) : notice('empty', EMPTY));
        return;
      }
    }
  };

  for (const section of root.querySelectorAll<HTMLElement>('[data-block]')) {
    const target = section.querySelector('[data-block-data]');
    const spec = storyBlock(section.dataset.block ?? '');
    if (!target || !spec) continue;
    fill(section, spec, target).catch((err: unknown) => clear(target, notice('error', err instanceof Error ? err.message : 'Loading failed.')));
  }
}
