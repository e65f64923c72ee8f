import { DEFAULT_SITE_ID } from '../../../core';
import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { buildShop } from '../../../test/helpers/shop';
import { SHOP, page } from './shop';
import { adminClient, salesKernel } from './support';

const MARCH = { date_start: '2025-03-01', date_end: '2025-03-31' };

/**
 * Exact figures of the hand-built shop (test/shop.ts); the sales plugin was
 * activated on 2025-01-10. Asked of the raw events alone, and again once the
 * finished days are folded into the roll-ups (today, 31 March, stays raw).
 */
describe.each([
  ['from the raw events', false],
  ['from the roll-ups', true],
])('sales data of a hand-built shop, %s', (_label, folded) => {
  let tk: TestKernel;
  let admin: HttpClient;
  const clock = new ManualClock('2025-01-10T08:00:00Z');
  const get = async (type: string, query: Record<string, unknown> = MARCH) => {
    const res = await admin.get(`${tk.api}/data/ecommerce/${type}`, { query });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, request_success: true });
    return res.body.data;
  };
  beforeAll(async () => {
    tk = await salesKernel({ clock });
    admin = await adminClient(tk);
    clock.set('2025-03-31T12:00:00Z');
    await buildShop(tk, admin, SHOP);
    if (folded) await tk.kernel.hooks.doAction('svc_every_hour');
  });
  afterAll(() => tk.close());

  it('sales: conversion, abandonment, average order and revenue in the main currency (EUR) against the previous period', async () => {
    expect(await get('sales')).toEqual({
      'conversion-rate': {
        label: 'Conversion rate',
        // O4 has no visitor: it is an order without a visit, not a converted visitor.
        current: { visitors: 6, total_converted: 3, conversion_rate: 50, orders_without_visit: 1, total_orders_all_currencies: 4 },
        previous: { visitors: 2, total_converted: 1, conversion_rate: 50, orders_without_visit: 0, total_orders_all_currencies: 1 },
      },
      'abandonment-rate': {
        label: 'Cart abandonment rate',
        current: { total_carts: 5, total_converted: 3, total_abandoned: 2, abandoned_rate: 40 },
        previous: { total_carts: 1, total_converted: 1, total_abandoned: 0, abandoned_rate: 0 },
      },
      'average-order': {
        label: 'Average order value',
        current: { total_orders: 3, total_revenue: 63, average_order_value: 21, total_refunded: 0, currency: 'EUR' },
        previous: { total_orders: 1, total_revenue: 10, average_order_value: 10, total_refunded: 0, currency: 'EUR' },
      },
      revenue: {
        label: 'Revenue',
        current: { total_orders: 3, total_revenue: 63, average_order_value: 21, total_refunded: 0, currency: 'EUR' },
        previous: { total_orders: 1, total_revenue: 10, average_order_value: 10, total_refunded: 0, currency: 'EUR' },
      },
    });
  });

  it('keeps currencies apart: USD figures on request, metrics narrow the fields', async () => {
    const usd = await get('sales', { ...MARCH, currency: 'usd', metrics: 'revenue,unknown' });
    expect(usd).toEqual({
      revenue: {
        label: 'Revenue',
        current: { total_orders: 1, total_revenue: 30, average_order_value: 30, total_refunded: 0, currency: 'USD' },
        previous: { total_orders: 0, total_revenue: 0, average_order_value: 0, total_refunded: 0, currency: 'USD' },
      },
    });
    const bad = await admin.get(`${tk.api}/data/ecommerce/sales`, { query: { ...MARCH, currency: 'EURO' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'svc_invalid_param' });
  });

  it('top performers compare the same product, campaign, country and device with the previous period', async () => {
    expect(await get('top-performers')).toEqual({
      'top-product': {
        label: 'Top product',
        current: { product_name: 'Mug', product_id: 1, total_quantity_sold: 5, total_revenue: 50, currency: 'EUR' },
        previous: { product_name: 'Mug', product_id: 1, total_quantity_sold: 1, total_revenue: 10, currency: 'EUR' },
        revenue_change: 400,
      },
      'top-campaign': {
        label: 'Top campaign',
        current: { campaign_id: 1, campaign_name: 'spring', total_revenue: 25, currency: 'EUR' },
        previous: { campaign_id: 1, campaign_name: 'spring', total_revenue: 10, currency: 'EUR' },
        revenue_change: 150,
      },
      'top-country': {
        label: 'Top country',
        current: { country_code: 'FR', total_revenue: 30, currency: 'EUR' },
        previous: { country_code: 'FR', total_revenue: 0, currency: 'EUR' },
        revenue_change: null,
      },
      'top-device': {
        label: 'Top device',
        current: { device_name: 'Tablet', total_revenue: 30, currency: 'EUR' },
        previous: { device_name: 'Tablet', total_revenue: 0, currency: 'EUR' },
        revenue_change: null,
      },
    });
    const de = await get('top-performers', { ...MARCH, filters: 'country:DE', metrics: ['top-product', 'top-device'] });
    expect(de['top-product'].current).toEqual({ product_name: 'Mug', product_id: 1, total_quantity_sold: 2, total_revenue: 20, currency: 'EUR' });
    expect(de['top-device'].current).toEqual({ device_name: 'Desktop', total_revenue: 25, currency: 'EUR' });
  });

  it('sales funnel: five stages in order, product views scoped by selected_pages', async () => {
    expect(await get('sales-funnel')).toEqual([
      { id: 'visits', stage: 'Visits', value: 6 },
      { id: 'product_page_views', stage: 'Product page views', value: 5 },
      { id: 'add_to_cart', stage: 'Add to cart', value: 5 },
      { id: 'checkout_visits', stage: 'Checkout visits', value: 4 },
      { id: 'conversions', stage: 'Conversions', value: 4 },
    ]);
    const mug = await get('sales-funnel', { ...MARCH, selected_pages: [page('mug'), `${page('mug')}?utm=x`] });
    expect(mug[1]).toEqual({ id: 'product_page_views', stage: 'Product page views', value: 3 });
    const json = await get('sales-funnel', { ...MARCH, selected_pages: JSON.stringify([page('hat'), page('tea')]) });
    expect(json[1].value).toBe(2);
    for (const wrong of ['relative', 'ftp://shop.example/product/mug', '//shop.example/product/mug']) {
      const bad = await admin.get(`${tk.api}/data/ecommerce/sales-funnel`, { query: { ...MARCH, selected_pages: [wrong] } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'svc_invalid_param', data: { field: 'selected_pages' } });
    }
  });

  it('sales funnel: selected_pages takes site paths as well, matched like stored pages (no query, fragment or trailing slash)', async () => {
    const views = async (pages: unknown) => (await get('sales-funnel', { ...MARCH, selected_pages: pages }))[1].value;
    expect(await views(['/product/mug/'])).toBe(3);
    expect(await views('/product/mug')).toBe(3);
    expect(await views(JSON.stringify(['/product/mug?ref=mail#reviews', page('hat')]))).toBe(4);
    expect(await views(['/product/hat', '/product/tea/'])).toBe(2);
    expect(await views(['/product'])).toBe(0);
    expect(await views(['/'])).toBe(0);
  });

  it('quick wins: the rules that fire for March, and dateRange of the window actually queried', async () => {
    expect(await get('quick-wins')).toEqual({
      quickWins: [
        {
          type: 'top_product',
          key: 'top_product_1',
          title: 'Mug drives your sales',
          message: 'Mug brought €50.00, 79.37% of the revenue.',
          recommendation: expect.any(String),
          url: `${tk.url}/svc-admin/sales?range=custom&date_start=2025-03-01&date_end=2025-03-31#top-performers`,
        },
        {
          type: 'campaign_no_follow_up',
          key: 'campaign_no_follow_up_1',
          title: 'Follow up on “spring”',
          message: 'The campaign spring brought €25.00 from 1 order but no order for 28 days.',
          recommendation: expect.any(String),
          url: `${tk.url}/svc-admin/sales?range=custom&date_start=2025-03-01&date_end=2025-03-31#top-performers`,
        },
      ],
      dateRange: { date_start: '2025-03-01', date_end: '2025-03-31' },
    });
    expect(await get('quick-wins', { date_start: '2025-01-11', date_end: '2025-01-31' })).toEqual({ quickWins: [], dateRange: null });
  });

  it('clamps shop types to the activation date and answers for the window actually queried', async () => {
    const clamped = await get('quick-wins', { date_start: '2024-12-01', date_end: '2025-02-28' });
    expect(clamped.dateRange).toEqual({ date_start: '2025-01-10', date_end: '2025-02-28' });
    const before = await get('sales', { date_start: '2024-11-01', date_end: '2024-12-31', metrics: 'conversion-rate' });
    expect(before['conversion-rate'].current).toEqual({ visitors: 0, total_converted: 0, conversion_rate: 0, orders_without_visit: 0, total_orders_all_currencies: 0 });
  });

  it('never counts more converted visitors than visitors: orders without a visit in the period are counted apart', async () => {
    // 25 March: only O4 (no uid). February: u7 visited and ordered on the 10th.
    const noVisit = await get('sales', { date_start: '2025-03-25', date_end: '2025-03-25', metrics: 'conversion-rate' });
    expect(noVisit['conversion-rate'].current).toEqual({ visitors: 0, total_converted: 0, conversion_rate: 0, orders_without_visit: 1, total_orders_all_currencies: 1 });
    // u1 visited on 3 March and ordered at 10:00: a window of the order's day alone still has the visit.
    const sameDay = await get('sales', { date_start: '2025-03-03', date_end: '2025-03-03', metrics: 'conversion-rate' });
    expect(sameDay['conversion-rate'].current).toEqual({ visitors: 1, total_converted: 1, conversion_rate: 100, orders_without_visit: 0, total_orders_all_currencies: 1 });
    // With a filter: the German visitors of March are u1, u2, u6; only u1 ordered.
    const de = await get('sales', { ...MARCH, filters: 'country:DE', metrics: 'conversion-rate' });
    expect(de['conversion-rate'].current).toEqual({ visitors: 3, total_converted: 1, conversion_rate: 33.33, orders_without_visit: 0, total_orders_all_currencies: 1 });
  });

  it('subscriptions: MRR, active, canceled, churn and lifetime value with changes against the previous period', async () => {
    expect(await get('subscriptions')).toEqual({
      monthly_recurring_revenue: { label: 'Monthly recurring revenue', current: { mrr: 70, count: 4 }, previous: { mrr: 50, count: 3 }, rate_change: 40, currency: 'EUR' },
      active_subscriptions: { label: 'Active subscriptions', current: 5, previous: 4, rate_change: 25 },
      canceled_subscriptions: { label: 'Canceled subscriptions', current: 2, previous: 1, rate_change: 100 },
      revenue_churn: {
        label: 'Revenue churn',
        current: { churned_percentage: 40, churned_mrr: 20, count: 1, previously_active_count: 3 },
        previous: { churned_percentage: 40, churned_mrr: 20, count: 1 },
        rate_change: 0,
      },
      average_lifetime_value: {
        label: 'Average lifetime value',
        // S2 and S5 paid and were canceled: they count towards the value, not as active.
        current: { value: 63.33, active_subscription_count: 4, paying_subscription_count: 6, total_revenue: 380 },
        previous: { value: 55, active_subscription_count: 3, paying_subscription_count: 4, total_revenue: 220 },
        rate_change: 15.15,
        currency: 'EUR',
      },
    });
    const usd = await get('subscriptions', { ...MARCH, currency: 'USD', metrics: 'monthly_recurring_revenue' });
    expect(usd).toEqual({ monthly_recurring_revenue: { label: 'Monthly recurring revenue', current: { mrr: 15, count: 1 }, previous: { mrr: 15, count: 1 }, rate_change: 0, currency: 'USD' } });
    const first = await get('subscriptions', { date_start: '2025-01-05', date_end: '2025-01-31', metrics: 'active_subscriptions' });
    expect(first.active_subscriptions).toEqual({ label: 'Active subscriptions', current: 3, previous: null, rate_change: null });
  });

  it('narrows every subscription figure to the subscriptions of one country; a device filter does not apply to them', async () => {
    // France: S2 (Box Monthly), started in February, canceled on 5 March.
    const fr = await get('subscriptions', { ...MARCH, filters: 'country:FR', metrics: 'monthly_recurring_revenue,active_subscriptions,canceled_subscriptions' });
    expect(fr).toEqual({
      monthly_recurring_revenue: { label: 'Monthly recurring revenue', current: { mrr: 0, count: 0 }, previous: { mrr: 20, count: 1 }, rate_change: -100, currency: 'EUR' },
      active_subscriptions: { label: 'Active subscriptions', current: 0, previous: 1, rate_change: -100 },
      canceled_subscriptions: { label: 'Canceled subscriptions', current: 1, previous: 0, rate_change: null },
    });
    expect(await get('subscriptions-distribution', { ...MARCH, filters: [{ key: 'country', value: 'DE' }] })).toEqual([
      { id: 'stripe', label: 'Stripe', count: 3, value: 75 },
      { id: 'paypal', label: 'Paypal', count: 1, value: 25 },
    ]);
    const plans = await admin.get(`${tk.api}/data/ecommerce/datatable/subscription_products`, { query: { ...MARCH, filters: 'country:FR', metrics: 'active_subscribers,canceled_subscribers' } });
    expect(plans.body.data).toEqual([{ product_id: 100, plan: 'Box Monthly', currency: 'EUR', active_subscribers: 0, canceled_subscribers: 1 }]);
    const retention = await get('subscriptions-retention', { date_start: '2025-01-01', date_end: '2025-03-31', filters: 'country:AT' });
    expect(retention.rows.map((r: { id: string }) => r.id)).toEqual(['2025 (1)']); // S5, yearly: cohorts by year
    const chart = await get('subscriptions-revenue-chart', { ...MARCH, filters: 'country:US', currency: 'USD', group_by: 'month' });
    expect(chart.rows.map((r: { newValue: number; renewalValue: number }) => [r.newValue, r.renewalValue])).toEqual([[0, 15]]);
    for (const type of ['subscriptions', 'subscriptions-revenue-chart', 'subscriptions-distribution', 'subscriptions-retention', 'datatable/subscription_products']) {
      const res = await admin.get(`${tk.api}/data/ecommerce/${type}`, { query: { ...MARCH, filters: 'device:Mobile' } });
      expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status: 400, code: 'svc_invalid_filter' });
    }
  });

  it('revenue chart by day, week and month, in revenue or sales mode, per currency', async () => {
    const daily = await get('subscriptions-revenue-chart');
    expect(daily).toMatchObject({ interval: 'day', spans_multiple_years: false, mode: 'revenue', currency: 'EUR' });
    expect(daily.rows).toHaveLength(31);
    expect(daily.rows[0]).toEqual({ timestamp: Date.UTC(2025, 2, 1) / 1000, label: 'Mar 1', newValue: 0, renewalValue: 0 });
    const nonZero = daily.rows.filter((r: any) => r.newValue || r.renewalValue).map((r: any) => [r.label, r.newValue, r.renewalValue]);
    expect(nonZero).toEqual([
      ['Mar 4', 20, 0],
      ['Mar 10', 120, 0],
      ['Mar 15', 0, 20],
    ]);
    const weekly = await get('subscriptions-revenue-chart', { ...MARCH, group_by: 'week', chart_mode: 'sales' });
    expect(weekly.rows.map((r: any) => [r.label, r.newValue, r.renewalValue])).toEqual([
      ['Feb 24', 0, 0],
      ['Mar 3', 1, 0],
      ['Mar 10', 1, 1],
      ['Mar 17', 0, 0],
      ['Mar 24', 0, 0],
      ['Mar 31', 0, 0],
    ]);
    expect(weekly.mode).toBe('sales');
    const monthly = await get('subscriptions-revenue-chart', { date_start: '2024-12-01', date_end: '2025-03-31', group_by: 'month', currency: 'USD' });
    expect(monthly).toMatchObject({ interval: 'month', spans_multiple_years: false, currency: 'USD' });
    expect(monthly.rows.map((r: any) => [r.label, r.newValue, r.renewalValue])).toEqual([
      ['Jan 2025', 0, 0],
      ['Feb 2025', 15, 0],
      ['Mar 2025', 0, 15],
    ]);
    expect((await get('subscriptions-revenue-chart', { date_start: '2025-01-01', date_end: '2025-06-30' })).interval).toBe('week');
    for (const query of [{ chart_mode: 'profit' }, { group_by: 'year' }, { group_by: 'day,week' }]) {
      const res = await admin.get(`${tk.api}/data/ecommerce/subscriptions-revenue-chart`, { query: { ...MARCH, ...query } });
      expect(res.status).toBe(400);
    }
  });

  it('subscription types start at the earliest subscription date, not at the activation date', async () => {
    const chart = await get('subscriptions-revenue-chart', { date_start: '2024-12-20', date_end: '2025-01-31' });
    expect(chart.rows[0].label).toBe('Jan 5');
    expect(chart.spans_multiple_years).toBe(false);
    expect(chart.rows).toHaveLength(27);
  });

  it('distribution by gateway, currency and country', async () => {
    expect(await get('subscriptions-distribution')).toEqual([
      { id: 'stripe', label: 'Stripe', count: 6, value: 75 },
      { id: 'paypal', label: 'Paypal', count: 2, value: 25 },
    ]);
    expect(await get('subscriptions-distribution', { ...MARCH, distribution_view: 'currencies' })).toEqual([
      { id: 'eur', label: 'EUR', count: 7, value: 87.5 },
      { id: 'usd', label: 'USD', count: 1, value: 12.5 },
    ]);
    expect(await get('subscriptions-distribution', { ...MARCH, distribution_view: 'countries' })).toEqual([
      { id: 'de', label: 'Germany', count: 4, value: 50 },
      { id: 'at', label: 'Austria', count: 2, value: 25 },
      { id: 'fr', label: 'France', count: 1, value: 12.5 },
      { id: 'us', label: 'United States', count: 1, value: 12.5 },
    ]);
    expect((await admin.get(`${tk.api}/data/ecommerce/subscriptions-distribution`, { query: { distribution_view: 'plans' } })).status).toBe(400);
  });

  it('retention cohorts by month across the period edge, and by year for a yearly product', async () => {
    const all = await get('subscriptions-retention', { date_start: '2025-01-01', date_end: '2025-03-31' });
    expect(all.interval).toBe('month');
    expect(all.max_offset).toBe(2);
    expect(all.rows).toEqual([
      {
        id: 'Jan 2025 (3)',
        signup_count: 3,
        data: [
          { x: 'Month 0', y: 100, count: 3 },
          { x: 'Month 1', y: 66.67, count: 2 },
          { x: 'Month 2', y: 100, count: 3 },
        ],
      },
      {
        id: 'Feb 2025 (3)',
        signup_count: 3,
        data: [
          { x: 'Month 0', y: 100, count: 3 },
          { x: 'Month 1', y: 66.67, count: 2 },
          { x: 'Month 2', y: null, count: null },
        ],
      },
      {
        id: 'Mar 2025 (2)',
        signup_count: 2,
        data: [
          { x: 'Month 0', y: 50, count: 1 },
          { x: 'Month 1', y: null, count: null },
          { x: 'Month 2', y: null, count: null },
        ],
      },
    ]);
    expect(all.products).toEqual([
      { id: 100, label: 'Box Monthly', is_yearly: false },
      { id: 200, label: 'Box Yearly', is_yearly: true },
      { id: 300, label: 'Pro', is_yearly: false },
    ]);
    const yearly = await get('subscriptions-retention', { date_start: '2025-01-01', date_end: '2025-03-31', product_id: 200 });
    expect(yearly).toMatchObject({ interval: 'year', max_offset: 0, rows: [{ id: '2025 (2)', signup_count: 2, data: [{ x: 'Year 0', y: 50, count: 1 }] }] });
    expect((await admin.get(`${tk.api}/data/ecommerce/subscriptions-retention`, { query: { product_id: '-1' } })).status).toBe(400);
  });

  it('datatables: rows per product and currency with money objects, metrics intersected, ids always present', async () => {
    const url = `${tk.api}/data/ecommerce/datatable`;
    const sales = await admin.get(`${url}/sales_products`, { query: MARCH });
    expect(sales.status).toBe(200);
    expect(sales.body.data).toEqual([
      { product_id: 1, currency: 'EUR', product: 'Mug', adds_to_cart: 2, sales: 5, revenue: { currency: 'EUR', value: 50 } },
      { product_id: 3, currency: 'USD', product: 'Hat', adds_to_cart: 1, sales: 1, revenue: { currency: 'USD', value: 30 } },
      { product_id: 2, currency: 'EUR', product: 'Tea', adds_to_cart: 1, sales: 1, revenue: { currency: 'EUR', value: 8 } },
      { product_id: 1, currency: 'USD', product: 'Mug', adds_to_cart: 1, sales: 0, revenue: { currency: 'USD', value: 0 } },
    ]);
    const narrow = await admin.get(`${url}/sales_products`, { query: { ...MARCH, metrics: ['revenue', 'bogus'], filters: [{ key: 'country', value: 'DE' }] } });
    expect(narrow.body.data).toEqual([
      { product_id: 1, currency: 'EUR', revenue: { currency: 'EUR', value: 20 } },
      { product_id: 2, currency: 'EUR', revenue: { currency: 'EUR', value: 0 } },
    ]);
    const subs = await admin.get(`${url}/subscription_products`, { query: MARCH });
    expect(subs.body.data).toEqual([
      {
        product_id: 100,
        plan: 'Box Monthly',
        currency: 'EUR',
        active_subscribers: 3,
        canceled_subscribers: 1,
        trialling_subscribers: 1,
        monthly_recurring_revenue: { currency: 'EUR', value: 60 },
        product_churn_value: 50,
      },
      {
        product_id: 200,
        plan: 'Box Yearly',
        currency: 'EUR',
        active_subscribers: 1,
        canceled_subscribers: 1,
        trialling_subscribers: 0,
        monthly_recurring_revenue: { currency: 'EUR', value: 10 },
        product_churn_value: 0,
      },
      {
        product_id: 300,
        plan: 'Pro',
        currency: 'USD',
        active_subscribers: 1,
        canceled_subscribers: 0,
        trialling_subscribers: 0,
        monthly_recurring_revenue: { currency: 'USD', value: 15 },
        product_churn_value: 0,
      },
    ]);
    const mrrOnly = await admin.get(`${url}/subscription_products`, { query: { ...MARCH, metrics: 'monthly_recurring_revenue', limit: 1 } });
    expect(mrrOnly.body.data).toEqual([{ product_id: 100, plan: 'Box Monthly', currency: 'EUR', monthly_recurring_revenue: { currency: 'EUR', value: 60 } }]);
    const csv = await admin.get(`${url}/sales_products`, { query: { ...MARCH, format: 'csv', metrics: 'sales' } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
  });

  it('sorts the products by a money column and searches their names in the details of the table', async () => {
    const url = `${tk.api}/data/ecommerce/datatable/sales_products`;
    const sorted = await admin.get(url, { query: { ...MARCH, order_by: 'revenue', order: 'asc' } });
    expect(sorted.body.data.rows.map((r: { revenue: { value: number } }) => r.revenue.value)).toEqual([0, 8, 30, 50]);
    const mugs = await admin.get(url, { query: { ...MARCH, search: 'MUG', order_by: 'currency', order: 'asc' } });
    expect(mugs.body.data.rows.map((r: { product: string; currency: string }) => [r.product, r.currency])).toEqual([['Mug', 'EUR'], ['Mug', 'USD']]);
    expect(mugs.body.data.total).toBe(2);
  });

  it('writes money in the CSV export as the value and a <column>_currency column', async () => {
    const csv = await admin.get(`${tk.api}/data/ecommerce/datatable/sales_products`, { query: { ...MARCH, format: 'csv', metrics: ['product', 'sales', 'revenue'], limit: 2 } });
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain('[object Object]');
    const [header, ...lines] = csv.text.trim().split('\r\n');
    expect(header!.split(',')).toEqual(['product', 'sales', 'revenue', 'revenue_currency', 'product_id', 'currency']);
    expect(lines).toEqual(['Mug,5,50,EUR,1,EUR', 'Hat,1,30,USD,3,USD']);
  });

  it('offers the datatables to other plugins through the sales service', async () => {
    const sales = tk.kernel.services.get('sales')!;
    const { rows, metrics } = await sales.datatable('sales_products', { siteId: DEFAULT_SITE_ID, query: { ...MARCH, metrics: ['nope'], filters: [{ key: 'type', value: 'purchase' }], limit: 2 },
      defaultMetrics: ['product', 'sales', 'revenue'],
    });
    expect(metrics).toEqual(['product', 'sales', 'revenue']);
    expect(rows).toEqual([
      { product_id: 1, currency: 'EUR', product: 'Mug', sales: 5, revenue: { currency: 'EUR', value: 50 } },
      { product_id: 3, currency: 'USD', product: 'Hat', sales: 1, revenue: { currency: 'USD', value: 30 } },
    ]);
    expect((await sales.datatable('sales_products', { siteId: DEFAULT_SITE_ID, query: { ...MARCH, filters: [{ key: 'type', value: 'subscription' }] } })).rows).toEqual([]);
    await expect(sales.datatable('subscription_products', { siteId: DEFAULT_SITE_ID, query: { metrics: ['x'] }, defaultMetrics: ['y'] })).rejects.toMatchObject({
      code: 'svc_abilities_invalid_metrics',
      status: 400,
    });
    await expect(sales.datatable('orders', { siteId: DEFAULT_SITE_ID, query: {} })).rejects.toMatchObject({ code: 'svc_abilities_unknown_datatable', status: 404, message: 'Unknown datatable endpoint.' });
  });
});
