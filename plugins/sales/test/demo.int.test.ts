import { type CliIO, ManualClock } from '../../../core';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, count, salesKernel } from './support';

const io = (): CliIO => ({ out: () => undefined, err: () => undefined, progress: () => undefined });

describe('svc demo with the sales plugin', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await salesKernel({ clock: new ManualClock('2025-06-30T15:00:00Z'), plugins: ['tracking', 'sales'] });
  });
  afterAll(() => tk.close());

  it('fills a shop for the generated visits: funnel, orders in two currencies, subscriptions', async () => {
    expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '15', '--seed', '11'], io())).toBe(0);
    const orders = await tk.kernel.db.select<{ currency: string; n: number }>(
      `SELECT currency, COUNT(*) AS n FROM ${tk.kernel.db.quote(tk.kernel.db.table('ecommerce_orders'))} GROUP BY currency ORDER BY currency`,
    );
    expect(orders.map((o) => o.currency)).toEqual(['EUR', 'USD']);
    expect(await count(tk, 'subscriptions')).toBeGreaterThan(3);
    const linked = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${tk.kernel.db.quote(tk.kernel.db.table('ecommerce_orders'))} WHERE session_id > 0`);
    expect(Number(linked[0]!.n)).toBe(orders.reduce((n, o) => n + Number(o.n), 0));

    const admin = await adminClient(tk);
    const funnel = (await admin.get(`${tk.api}/data/ecommerce/sales-funnel`, { query: { date_start: '2025-06-01', date_end: '2025-06-30' } })).body.data;
    const values = funnel.map((s: { value: number }) => s.value);
    expect(values.every((v: number, i: number) => i === 0 || v <= values[i - 1])).toBe(true);
    expect(values[4]).toBeGreaterThan(0);
    const subs = (await admin.get(`${tk.api}/data/ecommerce/subscriptions`, { query: { date_start: '2025-06-01', date_end: '2025-06-30' } })).body.data;
    expect(subs.monthly_recurring_revenue.current.mrr).toBeGreaterThan(0);
  }, 90_000); // a month of demo traffic through the real pipeline: seconds alone, far more beside a full parallel run
});
