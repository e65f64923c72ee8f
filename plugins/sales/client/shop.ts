import { clear, countryName, type DataPage, el, notice, type Section } from '../../../core/assets/client';
import { BarChart } from './charts';
import { change, money, percent } from './format';
import { renderCards, renderRows } from './widgets';

interface Money {
  total_orders: number;
  total_revenue: number;
  average_order_value: number;
  currency: string;
}
interface Conversion {
  conversion_rate: number;
  total_orders_all_currencies: number;
}
interface Sales {
  'conversion-rate': { current: Conversion; previous: Conversion };
  'abandonment-rate': { current: { abandoned_rate: number; total_carts: number }; previous: { abandoned_rate: number } };
  'average-order': { current: Money; previous: Money };
  revenue: { current: Money; previous: Money };
}
interface Top {
  label: string;
  current: Record<string, string | number>;
  revenue_change: number | null;
}
interface QuickWin {
  key: string;
  title: string;
  message: string;
  recommendation: string;
  url: string;
}

export const NO_ORDERS = 'No orders in this period. Send orders through the ingestion API or connect a store.';

/** The shop sections: cards, funnel, top performers, quick wins and the products table. */
export function shopSections(params: (page: DataPage, extra?: Record<string, unknown>) => Record<string, unknown>): Section[] {
  let funnelChart: BarChart | null = null;
  return [
    {
      selector: '[data-sales-cards]',
      fetch: (page) => page.api.get<Sales>('/data/ecommerce/sales', params(page)),
      render: (target, data) => {
        const s = data as Sales;
        const rev = s.revenue;
        const aov = s['average-order'];
        // Orders are counted in every currency, as the funnel's conversions; money is in the chosen one.
        const orders = { current: s['conversion-rate'].current.total_orders_all_currencies, previous: s['conversion-rate'].previous.total_orders_all_currencies };
        renderCards(target, [
          { id: 'revenue', label: 'Revenue', current: money(rev.current.total_revenue, rev.current.currency), previous: money(rev.previous.total_revenue, rev.previous.currency), change: change(rev.current.total_revenue, rev.previous.total_revenue) },
          { id: 'orders', label: 'Orders', current: String(orders.current), previous: String(orders.previous), change: change(orders.current, orders.previous) },
          { id: 'average-order', label: 'Average order', current: money(aov.current.average_order_value, aov.current.currency), previous: money(aov.previous.average_order_value, aov.previous.currency), change: change(aov.current.average_order_value, aov.previous.average_order_value) },
          { id: 'conversion-rate', label: 'Conversion rate', current: percent(s['conversion-rate'].current.conversion_rate), previous: percent(s['conversion-rate'].previous.conversion_rate), change: change(s['conversion-rate'].current.conversion_rate, s['conversion-rate'].previous.conversion_rate) },
          { id: 'abandonment-rate', label: 'Cart abandonment', current: percent(s['abandonment-rate'].current.abandoned_rate), previous: percent(s['abandonment-rate'].previous.abandoned_rate), change: change(s['abandonment-rate'].current.abandoned_rate, s['abandonment-rate'].previous.abandoned_rate), lowerIsBetter: true },
        ]);
      },
    },
    {
      selector: '[data-funnel]',
      fetch: (page) => page.api.get<Array<{ id: string; stage: string; value: number }>>('/data/ecommerce/sales-funnel', params(page)),
      render: (target, data, page) => {
        const stages = data as Array<{ id: string; stage: string; value: number }>;
        funnelChart ??= new BarChart(page.root.querySelector<HTMLCanvasElement>('[data-funnel-chart]')!, { horizontal: true });
        funnelChart.show(stages.map((s) => s.stage), [{ label: 'Funnel', values: stages.map((s) => s.value) }]);
        const visits = stages[0]?.value ?? 0;
        renderRows(target, [{ key: 'stage', label: 'Stage' }, { key: 'value', label: 'Count' }, { key: 'share', label: 'Of visits', format: 'percent' }],
          stages.map((s) => ({ ...s, share: visits ? Math.round((s.value / visits) * 10_000) / 100 : 0 })), 'No visits in this period.');
      },
    },
    {
      selector: '[data-top]',
      fetch: (page) => page.api.get<Record<string, Top>>('/data/ecommerce/top-performers', params(page)),
      render: (target, data) => {
        const items = Object.entries(data as Record<string, Top>).map(([id, top]) => {
          const c = top.current;
          const name = c.country_code !== undefined ? countryName(String(c.country_code)) : String(c.product_name ?? c.campaign_name ?? c.device_name ?? '');
          const trend = top.revenue_change === null ? '' : ` (${top.revenue_change > 0 ? '+' : ''}${top.revenue_change} %)`;
          return el('li', { 'data-top-item': id }, el('span', { class: 'metric-label' }, top.label), el('strong', {}, name || '–'), el('span', {}, name ? `${money(c.total_revenue, String(c.currency))}${trend}` : ''));
        });
        clear(target, el('ul', { class: 'top-list' }, ...items));
      },
    },
    {
      selector: '[data-quick-wins]',
      fetch: (page) => page.api.get<{ quickWins: QuickWin[]; dateRange: unknown }>('/data/ecommerce/quick-wins', params(page)),
      render: (target, data) => {
        const { quickWins, dateRange } = data as { quickWins: QuickWin[]; dateRange: unknown };
        if (dateRange === null) return clear(target, notice('empty', 'Not enough shop data in this period for suggestions yet.'));
        if (quickWins.length === 0) return clear(target, notice('empty', 'Nothing stands out in this period. Well done.'));
        clear(target, el('ul', { class: 'quick-wins' }, ...quickWins.map((w) =>
          el('li', { 'data-win': w.key }, el('h3', {}, w.title), el('p', {}, w.message), el('p', { class: 'muted' }, w.recommendation), el('a', { href: w.url }, 'Show in the dashboard')))));
      },
    },
    {
      selector: '[data-table="sales_products"]',
      fetch: (page) => page.api.get<Array<Record<string, unknown>>>('/data/ecommerce/datatable/sales_products', params(page, { limit: 20 })),
      render: (target, rows) => renderRows(target, [
        { key: 'product', label: 'Product' }, { key: 'currency', label: 'Currency', format: 'text' }, { key: 'adds_to_cart', label: 'Added to cart' },
        { key: 'sales', label: 'Sold' }, { key: 'revenue', label: 'Revenue', format: 'money' },
      ], rows as Array<Record<string, unknown>>, NO_ORDERS),
    },
  ];
}
