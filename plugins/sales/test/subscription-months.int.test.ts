import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { aggregateAllMonths } from '../subscriptions/daily';
import { SUBSCRIPTION_EVENTS } from './shop';
import { adminClient, at, salesKernel } from './support';

type Json = Record<string, any>;

/**
 * The monthly sums of the subscription figures answer what the subscription
 * events say: payments per month of the revenue chart, events per gateway,
 * currency and country, cancellations and lifetime payments, over windows
 * holding whole months and parts of months.
 */
describe('monthly subscription sums', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  const q = (name: string) => tk.kernel.db.quote(tk.kernel.db.table(name));
  const get = async (type: string, query: Json) => {
    const res = await admin.get(`${tk.api}/data/ecommerce/${type}`, { query });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** A figure straight from the subscription events of the default site in [from, to). */
  const fromEvents = async (select: string, where: string, params: unknown[], from: string, to: string, group = '') =>
    tk.kernel.db.select<Json>(`SELECT ${select} FROM ${q('subscription_events')} WHERE site_id = 1 AND time >= ? AND time < ? AND ${where} ${group}`, [at(from), at(to), ...params]);
  const clock = new ManualClock('2024-12-01T08:00:00Z');

  beforeAll(async () => {
    tk = await salesKernel({ clock });
    admin = await adminClient(tk);
    clock.set('2025-05-10T12:00:00Z');
    const plan = { product_id: 400, product_name: 'Tea club', amount: 9.5, currency: 'GBP', billing_period: 'month', billing_interval: 1, gateway: 'mollie', country_code: 'GB' };
    const tea = [
      { ...plan, type: 'subscription', subscription_id: 'T1', event: 'created', time: at('2024-12-30T23:30:00') },
      { ...plan, type: 'subscription', subscription_id: 'T1', event: 'renewed', time: at('2025-01-30T23:30:00') },
      { ...plan, type: 'subscription', subscription_id: 'T1', event: 'renewed', time: at('2025-02-28T23:59:59') },
      { ...plan, type: 'subscription', subscription_id: 'T1', event: 'canceled', time: at('2025-04-02T08:00:00') },
      { ...plan, type: 'subscription', subscription_id: 'T2', event: 'created', currency: 'EUR', amount: 11, time: at('2025-04-15T10:00:00') },
      { ...plan, type: 'subscription', subscription_id: 'T2', event: 'renewed', currency: 'EUR', amount: 11, time: at('2025-05-10T09:00:00') },
    ];
    const res = await admin.post(`${tk.api}/ecommerce/events`, { json: { events: [...SUBSCRIPTION_EVENTS, ...tea] } });
    expect(res.body.rejected).toEqual([]);
  });
  afterAll(() => tk?.close());

  const WINDOWS = [
    { date_start: '2024-12-15', date_end: '2025-05-10' },
    { date_start: '2025-01-01', date_end: '2025-03-31' },
    { date_start: '2025-02-10', date_end: '2025-04-20' },
  ];

  it('adds up the payments of each month of the revenue chart as the events do', async () => {
    const [months] = await tk.kernel.db.select<Json>(`SELECT COUNT(DISTINCT month) AS n FROM ${q('subscription_months')}`);
    expect(Number(months!.n)).toBe(6);
    for (const window of WINDOWS) {
      for (const currency of ['EUR', 'GBP']) {
        const chart = await get('subscriptions-revenue-chart', { ...window, group_by: 'month', currency });
        const counts = await get('subscriptions-revenue-chart', { ...window, group_by: 'month', currency, chart_mode: 'sales' });
        for (const [i, row] of (chart.rows as Json[]).entries()) {
          const from = new Date(Math.max(row.timestamp, at(`${window.date_start}T00:00:00`)) * 1000).toISOString();
          const next = (chart.rows as Json[])[i + 1]?.timestamp ?? at(`${window.date_end}T00:00:00`) + 86_400;
          const to = new Date(Math.min(next, at(`${window.date_end}T00:00:00`) + 86_400) * 1000).toISOString();
          const [paid] = await fromEvents(
            `SUM(CASE WHEN event IN ('created', 'converted') THEN amount ELSE 0 END) AS nv, SUM(CASE WHEN event = 'renewed' THEN amount ELSE 0 END) AS rv,
             SUM(CASE WHEN event IN ('created', 'converted') THEN 1 ELSE 0 END) AS nc, SUM(CASE WHEN event = 'renewed' THEN 1 ELSE 0 END) AS rc`,
            'currency = ?',
            [currency],
            from,
            to,
          );
          const label = `${currency} ${row.label} of ${window.date_start}..${window.date_end}`;
          expect({ label, newValue: row.newValue, renewalValue: row.renewalValue }).toEqual({ label, newValue: Number(paid!.nv ?? 0), renewalValue: Number(paid!.rv ?? 0) });
          expect({ label, newValue: counts.rows[i].newValue, renewalValue: counts.rows[i].renewalValue }).toEqual({ label, newValue: Number(paid!.nc ?? 0), renewalValue: Number(paid!.rc ?? 0) });
        }
      }
    }
  });

  it('counts the events of each gateway, currency and country, and the cancellations, as the events do', async () => {
    for (const window of WINDOWS) {
      const to = new Date((at(`${window.date_end}T00:00:00`) + 86_400) * 1000).toISOString();
      for (const [view, column] of [['gateways', 'gateway'], ['currencies', 'currency'], ['countries', 'country_code']]) {
        const shown = ((await get('subscriptions-distribution', { ...window, distribution_view: view })) as Json[]).map((r) => r.count).sort();
        const counted = (await fromEvents('COUNT(*) AS n', '1 = 1', [], window.date_start, to, `GROUP BY ${column}`)).map((r) => Number(r.n)).sort();
        expect({ window, view, shown }).toEqual({ window, view, shown: counted });
      }
      const [canceled] = await fromEvents('COUNT(*) AS n', "event = 'canceled'", [], window.date_start, to);
      expect((await get('subscriptions', { ...window, metrics: 'canceled_subscriptions' })).canceled_subscriptions.current).toBe(Number(canceled!.n));
      const [paid] = await fromEvents('COALESCE(SUM(amount), 0) AS v', "currency = 'EUR' AND event IN ('created', 'converted', 'renewed')", [], '2000-01-01', to);
      const value = (await get('subscriptions', { ...window, metrics: 'average_lifetime_value', currency: 'EUR' })).average_lifetime_value.current;
      expect(value.total_revenue).toBe(Number(paid!.v));
    }
  });

  it('adds the months up again from the days for an install made before the month table', async () => {
    const before = await Promise.all(WINDOWS.map((w) => get('subscriptions-revenue-chart', { ...w, group_by: 'month' })));
    await tk.kernel.db.execute(`DELETE FROM ${q('subscription_months')}`);
    expect(await tk.kernel.db.transaction((t) => aggregateAllMonths(tk.kernel.db, 1, 'UTC', t), { writes: true })).toBe(6);
    expect(await Promise.all(WINDOWS.map((w) => get('subscriptions-revenue-chart', { ...w, group_by: 'month' })))).toEqual(before);
  });
});
