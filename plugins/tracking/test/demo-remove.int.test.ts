import { type CliIO, ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, pageview, track } from './helpers';

function io(): CliIO & { out: jest.Mock; lines: string[] } {
  const lines: string[] = [];
  return { lines, out: jest.fn((l: string) => void lines.push(l)), err: () => undefined, progress: () => undefined };
}

/** Every row of the tables demo data lands in, as comparable JSON, keyed by table. */
const TABLES = [
  'statistics',
  'sessions',
  'goals',
  'goal_statistics',
  'statistics_searches',
  'ecommerce_received',
  'ecommerce_events',
  'ecommerce_orders',
  'ecommerce_order_items',
  'subscriptions',
  'subscription_events',
  'subscription_periods',
  'subscription_days',
  'summary_days',
  'summary_dims',
  'summary_days_month',
  'summary_dims_month',
];

describe('svc demo --remove', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  const clock = new ManualClock('2026-03-20T12:00:00Z');
  const snapshot = async (): Promise<Record<string, string[]>> => {
    const db = tk.kernel.db;
    const out: Record<string, string[]> = {};
    for (const table of TABLES) {
      const rows = await db.select(`SELECT * FROM ${db.quote(db.table(table))}`).catch(() => null);
      if (rows) out[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  };
  const figures = async () =>
    (await admin.get(`${tk.api}/data/compare`, { query: { date_start: '2026-02-01', date_end: '2026-03-19' } })).body.data.current as Record<string, number>;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking', 'sales'], env: { SVC_LICENSE: 'business' }, clock });
    const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
    admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 'demo test')).password);
  });
  afterAll(() => tk?.close());

  it('deletes exactly what the demo generated; real visits, goals, orders and subscriptions stay', async () => {
    // Real data first: a visit three days ago and today, a goal of the same title as a demo one, an order and a subscription.
    clock.set('2026-03-17T10:00:00Z');
    await track(tk, pageview('https://shop.example/real/', 'real-visitor'), { headers: { 'user-agent': CHROME } });
    clock.set('2026-03-20T12:00:00Z');
    await track(tk, pageview('https://shop.example/real/again/', 'real-visitor-2'), { headers: { 'user-agent': CHROME } });
    const goal = await admin.post(`${tk.api}/goals`, { json: { title: 'Clicked sign up', type: 'clicks', status: 'active', selector: '#real' } });
    expect(goal.status).toBe(200);
    const ingest = await admin.post(`${tk.api}/ecommerce/events`, {
      json: {
        events: [
          { type: 'order', id: 'real-1', order_id: 'R-1', currency: 'EUR', total: 30, items: [{ product_id: 9, product_name: 'Real thing', quantity: 1, price: 30 }], time: clock.unix() - 86_400 },
          { type: 'subscription', id: 'real-sub-1', subscription_id: 'S-1', event: 'created', product_id: 9, product_name: 'Real plan', amount: 10, currency: 'EUR', billing_period: 'month', billing_interval: 1, time: clock.unix() - 5 * 86_400 },
        ],
      },
    });
    expect(ingest.body.rejected).toEqual([]);
    await tk.kernel.statistics.folder.foldPending(1000);
    const before = await snapshot();
    const realFigures = await figures();
    expect(realFigures.pageviews).toBe(1);

    expect(await tk.kernel.commands.get('demo')!.run(['--days', '20', '--visitors', '12', '--seed', '9'], io())).toBe(0);
    await tk.kernel.statistics.folder.foldPending(1000);
    const withDemo = await snapshot();
    expect(withDemo.statistics!.length).toBeGreaterThan(before.statistics!.length + 100);
    expect(withDemo.ecommerce_orders!.length).toBeGreaterThan(before.ecommerce_orders!.length);
    expect(withDemo.subscriptions!.length).toBeGreaterThan(before.subscriptions!.length);
    expect(withDemo.goals!.map((g) => JSON.parse(g).title).sort()).toEqual(['Clicked sign up', 'Viewed pricing']);
    expect((await figures()).pageviews).toBeGreaterThan(100);

    const out = io();
    expect(await tk.kernel.commands.get('demo')!.run(['--remove'], out)).toBe(0);
    expect(out.lines[0]).toMatch(/^Removed \d+ demo sessions with \d+ page views and 1 demo goal\.$/);
    expect(out.lines[1]).toMatch(/^Removed the demo shop: \d+ orders, \d+ subscriptions and \d+ visitor events\.$/);
    expect(out.lines[2]).toMatch(/^Folded the statistics of \d+ days again\.$/);

    expect(await snapshot()).toEqual(before);
    expect(await figures()).toEqual(realFigures);

    const again = io();
    expect(await tk.kernel.commands.get('demo')!.run(['--remove'], again)).toBe(0);
    expect(again.lines).toEqual(['Removed 0 demo sessions with 0 page views.', 'Removed the demo shop: 0 orders, 0 subscriptions and 0 visitor events.']);
  }, 120_000);

  it('refuses --remove with other options', async () => {
    await expect(tk.kernel.commands.get('demo')!.run(['--remove', '--days', '3'], io())).rejects.toThrow('--remove takes no other option');
  });
});
