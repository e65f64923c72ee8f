import { ManualClock } from '../../../core';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { type TestDatabase, createTestDatabase } from '../../../test/helpers/test-db';
import { adminClient, count, salesKernel } from '../../sales/test/support';
import { type FakeStore, startStore, wcDate } from './store';

const DAY = 86_400;
const NOW = Date.UTC(2025, 2, 31, 12) / 1000;
const FIRST = Date.UTC(2024, 3, 1, 10) / 1000;

/**
 * 120 historical subscriptions, one every three days from 2024-04-01: every
 * third bills 120 EUR a year, the others 10 EUR a month with a renewal order
 * every 30 days; every fifth starts with a 14-day trial, every seventh is
 * canceled 40 days after its start.
 */
function fillStore(store: FakeStore) {
  let newRevenue = 0;
  let renewalRevenue = 0;
  let events = 0;
  for (let i = 0; i < 120; i++) {
    const id = 1000 + i;
    const start = FIRST + i * 3 * DAY;
    const yearly = i % 3 === 0;
    const amount = yearly ? 120 : 10;
    const trialEnd = i % 5 === 0 ? start + 14 * DAY : null;
    const canceled = i % 7 === 0 && start + 40 * DAY <= NOW ? start + 40 * DAY : null;
    const paidFrom = trialEnd ?? start;
    if (paidFrom <= NOW) {
      newRevenue += amount;
      events += trialEnd ? 2 : 1;
    } else events += 1;
    if (canceled) events += 1;
    const orders = [{ id: id * 100, status: 'completed', currency: 'EUR', total: String(amount), date_created_gmt: wcDate(start), date_paid_gmt: wcDate(start), line_items: [] }];
    for (let t = paidFrom + 30 * DAY; !yearly && t <= Math.min(NOW, canceled ?? NOW); t += 30 * DAY) {
      orders.push({ id: id * 100 + orders.length, status: 'completed', currency: 'EUR', total: '10.00', date_created_gmt: wcDate(t), date_paid_gmt: wcDate(t), line_items: [] });
      renewalRevenue += 10;
      events += 1;
    }
    store.orders.set(id, orders);
    store.subscriptions.push({
      id,
      parent_id: id * 100,
      status: canceled ? 'cancelled' : 'active',
      currency: 'EUR',
      total: String(amount),
      billing_period: yearly ? 'year' : 'month',
      billing_interval: '1',
      start_date_gmt: wcDate(start),
      trial_end_date_gmt: trialEnd ? wcDate(trialEnd) : null,
      cancelled_date_gmt: canceled ? wcDate(canceled) : null,
      payment_method: i % 2 ? 'stripe' : 'paypal',
      billing: { country: 'DE' },
      line_items: [{ product_id: yearly ? 2 : 1, name: yearly ? 'Yearly' : 'Monthly', quantity: 1, total: String(amount) }],
    });
  }
  return { newRevenue, renewalRevenue, events };
}

describe('subscription backfill after WooCommerce is first activated', () => {
  let database: TestDatabase;
  let store: FakeStore;
  const kernels: TestKernel[] = [];
  const clock = new ManualClock(NOW * 1000);
  const boot = async () => {
    const tk = await salesKernel({ clock, database, plugins: ['sales', 'woocommerce'] });
    kernels.push(tk);
    return tk;
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await startStore('ck', 'cs');
  });
  afterAll(async () => {
    for (const tk of kernels) await tk.close().catch(() => undefined);
    await store.close();
    await database.drop();
  });

  it('imports the history and aggregates it in scheduled batches, resuming on another node after a stop', async () => {
    const expected = fillStore(store);
    const first = await boot();
    const settings = { svc_woocommerce_store_url: store.url, svc_woocommerce_consumer_key: 'ck', svc_woocommerce_consumer_secret: 'cs', svc_woocommerce_webhook_secret: 'whs' };
    expect(await first.kernel.settings.save(settings)).toMatchObject({ saved: true });
    const progressUrl = `${first.api}/get_action/ecommerce/get_subscriptions_backfill_progress`;
    const progress = async (tk: TestKernel) => (await (await adminClient(tk)).get(progressUrl.replace(first.api, tk.api))).body;

    const running = { is_processing: true, processed: 0, total: 365, integrations: ['WooCommerce'] };
    expect(await progress(first)).toEqual({ ...running, progress: 0, phase: 'fetching' });
    const pending = await first.kernel.scheduler.pending('svc_sales_backfill_batch');
    expect(pending.map((e) => e.args)).toEqual([['woocommerce', 'import', '', 0]]);

    // Listing the store's three pages is the first half of the progress, adding up the days the second.
    expect((await first.kernel.scheduler.runDue()).ran).toBe(1);
    expect(await progress(first)).toEqual({ ...running, progress: 16, phase: 'fetching' });
    expect((await first.kernel.scheduler.runDue()).ran).toBe(1);
    expect(await progress(first)).toEqual({ ...running, progress: 33, phase: 'fetching' });
    expect((await first.kernel.scheduler.runDue()).ran).toBe(1);
    expect(await progress(first)).toEqual({ ...running, progress: 50, phase: 'adding_up' });
    for (let i = 0; i < 2; i++) expect((await first.kernel.scheduler.runDue()).ran).toBe(1);
    expect(await progress(first)).toEqual({ ...running, progress: 58, processed: 60, phase: 'adding_up' });
    const days = async (tk: TestKernel) =>
      tk.kernel.db.select<{ n: number; last: number }>(`SELECT COUNT(DISTINCT day) AS n, MAX(day) AS last FROM ${tk.kernel.db.quote(tk.kernel.db.table('subscription_days'))}`);
    const [partial] = await days(first);
    expect(Number(partial!.last)).toBeLessThan(Date.UTC(2024, 4, 31) / 1000);
    await first.close();

    const second = await boot();
    let runs = 0;
    while ((await second.kernel.scheduler.pending('svc_sales_backfill_batch')).length > 0) {
      await second.kernel.scheduler.runDue();
      if (++runs > 20) throw new Error('the backfill does not end');
    }
    expect(runs).toBe(11);
    expect(await progress(second)).toEqual({ is_processing: false, progress: 0, processed: 0, total: 0 });

    const [totals] = await second.kernel.db.select<Record<string, number>>(
      `SELECT SUM(new_revenue) AS nr, SUM(renewal_revenue) AS rr, SUM(events) AS ev FROM ${second.kernel.db.quote(second.kernel.db.table('subscription_days'))}`,
    );
    expect({ newRevenue: Number(totals!.nr), renewalRevenue: Number(totals!.rr), events: Number(totals!.ev) }).toEqual(expected);
    const chart = await (await adminClient(second)).get(`${second.api}/data/ecommerce/subscriptions-revenue-chart`, {
      query: { date_start: '2024-04-01', date_end: '2025-03-31', group_by: 'month' },
    });
    const sum = (key: string) => chart.body.data.rows.reduce((n: number, r: Record<string, number>) => n + r[key]!, 0);
    expect(sum('newValue')).toBe(expected.newRevenue);
    expect(sum('renewalValue')).toBe(expected.renewalRevenue);
    expect(chart.body.data.rows[0].label).toBe('Apr 2024');
  }, 120_000);

  it('retries a step the store refuses, gives up after five tries, and runs again with svc sales backfill', async () => {
    const other = await createTestDatabase();
    const tk = await salesKernel({ clock, database: other, plugins: ['sales', 'woocommerce'] });
    try {
      const settings = { svc_woocommerce_store_url: store.url, svc_woocommerce_consumer_key: 'ck', svc_woocommerce_consumer_secret: 'cs', svc_woocommerce_webhook_secret: 'whs' };
      expect(await tk.kernel.settings.save(settings)).toMatchObject({ saved: true });
      const admin = await adminClient(tk);
      const progressUrl = `${tk.api}/get_action/ecommerce/get_subscriptions_backfill_progress`;
      expect((await admin.get(progressUrl)).body.is_processing).toBe(true);
      await tk.kernel.settings.save({ svc_woocommerce_consumer_secret: 'revoked' });
      const delays: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await tk.kernel.scheduler.runDue()).ran).toBe(1);
        const [next] = await tk.kernel.scheduler.pending('svc_sales_backfill_batch');
        if (!next) break;
        delays.push(next.runAt - clock.unix());
        expect((await tk.kernel.scheduler.runDue()).ran).toBe(0);
        clock.set(next.runAt * 1000);
      }
      expect(delays).toEqual([60, 120, 240, 480]);
      expect(await tk.kernel.scheduler.pending('svc_sales_backfill_batch')).toEqual([]);
      expect((await admin.get(progressUrl)).body).toEqual({ is_processing: false, progress: 0, processed: 0, total: 0 });
      expect(tk.logs.some((l) => String(l.msg).includes('subscription backfill of woocommerce abandoned: WooCommerce answered 401'))).toBe(true);

      expect(await tk.kernel.options.get('svc_sales_backfill_last_woocommerce')).toMatchObject({ outcome: 'abandoned', message: expect.stringContaining('WooCommerce answered 401') });

      await tk.kernel.settings.save({ svc_woocommerce_consumer_secret: 'cs' });
      const lines: string[] = [];
      const shown: number[] = [];
      const cli = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l), progress: (done: number) => void shown.push(done) };
      expect(await tk.kernel.commands.get('sales')!.run(['backfill', 'woocommerce', '--detach'], cli)).toBe(0);
      expect(lines).toEqual([
        'backfill of woocommerce started: 365 days',
        'backfill of woocommerce scheduled: a running server works through it; `svc sales backfill woocommerce` follows it (or does the work itself)',
      ]);
      expect((await admin.get(progressUrl)).body).toMatchObject({ is_processing: true, progress: 0, phase: 'fetching' });
      expect((await tk.kernel.scheduler.runDue()).ran).toBe(1);

      // Run again while it runs: it says so, does not start over, and follows it to the end.
      lines.length = 0;
      expect(await tk.kernel.commands.get('sales')!.run(['backfill', 'woocommerce'], cli)).toBe(0);
      expect(lines).toEqual(['a backfill of woocommerce is already running (16 %); it is not started over.', 'backfill of woocommerce finished: 365 days of subscription history']);
      expect(shown[0]).toBe(16);
      expect(shown.at(-1)).toBe(100);
      expect(shown).toEqual([...shown].sort((a, b) => a - b));
      expect(await tk.kernel.scheduler.pending('svc_sales_backfill_batch')).toEqual([]);
      expect(await count(tk, 'subscriptions')).toBe(120);
      expect(await tk.kernel.commands.get('sales')!.run(['backfill', 'shopify'], cli).catch((e: Error) => e.message)).toMatch(/no integration named shopify/);
    } finally {
      clock.set(NOW * 1000);
      await tk.close();
      await other.drop();
    }
  }, 120_000);
});
