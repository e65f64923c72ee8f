import { clear, type DataPage, el, formatNumber, notice, type Section, tableBox } from '../../../core/assets/client';
import { BarChart } from './charts';
import { money, percent } from './format';
import { renderCards, renderRows } from './widgets';

type Figure<T> = { current: T; previous: T; rate_change: number | null };
interface Subscriptions {
  monthly_recurring_revenue: Figure<{ mrr: number; count: number }> & { currency: string };
  active_subscriptions: Figure<number | null>;
  canceled_subscriptions: Figure<number | null>;
  revenue_churn: Figure<{ churned_percentage: number; churned_mrr: number }>;
  average_lifetime_value: Figure<{ value: number }> & { currency: string };
}
interface Chart {
  currency: string;
  mode: string;
  rows: Array<{ label: string; newValue: number; renewalValue: number }>;
}
interface Retention {
  interval: string;
  max_offset: number;
  rows: Array<{ id: string; data: Array<{ x: string; y: number | null; count: number | null }> }>;
  products: Array<{ id: number; label: string }>;
}

export const NO_SUBSCRIPTIONS = 'No subscriptions yet: connect WooCommerce or Stripe, or send subscription events through the ingestion API.';
const empty = (data: unknown) => Array.isArray(data);
const nullable = (v: number | null) => (v === null ? null : formatNumber(v));

/** The subscription sections: cards, revenue chart, distribution, retention heat map and the plans table. */
export function subscriptionSections(params: (page: DataPage, extra?: Record<string, unknown>) => Record<string, unknown>): Section[] {
  let chart: BarChart | null = null;
  const pick = (page: DataPage, selector: string) => page.root.querySelector<HTMLSelectElement>(selector)?.value;
  return [
    {
      selector: '[data-subscription-cards]',
      fetch: (page) => page.api.get<Subscriptions | []>('/data/ecommerce/subscriptions', params(page)),
      render: (target, data) => {
        if (empty(data)) return clear(target, notice('empty', NO_SUBSCRIPTIONS));
        const s = data as Subscriptions;
        const mrr = s.monthly_recurring_revenue;
        const ltv = s.average_lifetime_value;
        renderCards(target, [
          { id: 'mrr', label: 'Monthly recurring revenue', current: money(mrr.current.mrr, mrr.currency), previous: money(mrr.previous.mrr, mrr.currency), change: mrr.rate_change },
          { id: 'active', label: 'Active subscriptions', current: formatNumber(s.active_subscriptions.current), previous: nullable(s.active_subscriptions.previous), change: s.active_subscriptions.rate_change },
          { id: 'canceled', label: 'Canceled', current: formatNumber(s.canceled_subscriptions.current), previous: nullable(s.canceled_subscriptions.previous), change: s.canceled_subscriptions.rate_change, lowerIsBetter: true },
          { id: 'churn', label: 'Revenue churn', current: percent(s.revenue_churn.current.churned_percentage), previous: percent(s.revenue_churn.previous.churned_percentage), change: s.revenue_churn.rate_change, lowerIsBetter: true },
          { id: 'ltv', label: 'Average lifetime value', current: money(ltv.current.value, ltv.currency), previous: money(ltv.previous.value, ltv.currency), change: ltv.rate_change },
        ]);
      },
    },
    {
      selector: '[data-revenue-state]',
      fetch: (page) => page.api.get<Chart | []>('/data/ecommerce/subscriptions-revenue-chart', params(page, { chart_mode: pick(page, '[data-chart-mode]') })),
      render: (target, data, page) => {
        chart ??= new BarChart(page.root.querySelector<HTMLCanvasElement>('[data-revenue-chart]')!, { stacked: true });
        const c = empty(data) ? { currency: '', mode: 'revenue', rows: [] } : (data as Chart);
        chart.show(c.rows.map((r) => r.label), [
          { label: c.mode === 'sales' ? 'New subscriptions' : `New (${c.currency})`, values: c.rows.map((r) => r.newValue) },
          { label: c.mode === 'sales' ? 'Renewals' : `Renewals (${c.currency})`, values: c.rows.map((r) => r.renewalValue) },
        ]);
        clear(target, ...(empty(data) ? [notice('empty', NO_SUBSCRIPTIONS)] : []));
      },
    },
    {
      selector: '[data-distribution]',
      fetch: (page) => page.api.get<Array<Record<string, unknown>>>('/data/ecommerce/subscriptions-distribution', params(page, { distribution_view: pick(page, '[data-distribution-view]') })),
      render: (target, rows) =>
        renderRows(target, [{ key: 'label', label: 'Name' }, { key: 'count', label: 'Events' }, { key: 'value', label: 'Share', format: 'percent' }], rows as Array<Record<string, unknown>>, NO_SUBSCRIPTIONS),
    },
    {
      selector: '[data-retention]',
      fetch: (page) => page.api.get<Retention | []>('/data/ecommerce/subscriptions-retention', params(page, { product_id: pick(page, '[data-retention-product]') })),
      render: (target, data, page) => {
        if (empty(data) || (data as Retention).rows.length === 0) return clear(target, notice('empty', 'No subscription started in this period.'));
        const r = data as Retention;
        const select = page.root.querySelector<HTMLSelectElement>('[data-retention-product]')!;
        const chosen = select.value;
        clear(select, el('option', { value: '0' }, 'All products'), ...r.products.map((p) => el('option', { value: String(p.id) }, p.label)));
        select.value = chosen;
        const offsets = r.rows[0]!.data.map((p) => p.x);
        const head = el('tr', {}, el('th', { scope: 'col' }, 'Cohort'), ...offsets.map((x) => el('th', { scope: 'col', class: 'num' }, x)));
        const body = r.rows.map((row) =>
          el('tr', {}, el('th', { scope: 'row' }, row.id), ...row.data.map((p) =>
            p.y === null ? el('td', { class: 'num muted' }, '') : el('td', { class: `num heat${p.y >= 60 ? ' hot' : ''}`, style: `--heat:${(p.y / 100).toFixed(2)}`, title: `${p.count} subscribed` }, `${p.y} %`))));
        clear(target, tableBox(head, body, 'data-table retention'));
      },
    },
    {
      selector: '[data-table="subscription_products"]',
      fetch: (page) => page.api.get<Array<Record<string, unknown>>>('/data/ecommerce/datatable/subscription_products', params(page, { limit: 20 })),
      render: (target, rows) => renderRows(target, [
        { key: 'plan', label: 'Plan' }, { key: 'active_subscribers', label: 'Active' }, { key: 'trialling_subscribers', label: 'Trials' },
        { key: 'canceled_subscribers', label: 'Canceled' }, { key: 'monthly_recurring_revenue', label: 'MRR', format: 'money' }, { key: 'product_churn_value', label: 'Churn', format: 'percent' },
      ], rows as Array<Record<string, unknown>>, NO_SUBSCRIPTIONS),
    },
  ];
}
