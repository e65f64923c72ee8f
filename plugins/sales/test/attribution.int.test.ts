import { ManualClock } from '../../../core';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, rows, salesKernel, visit } from './support';

/** Orders take their campaign from the sources plugin's parsed UTM fields when it is loaded, else from the raw query string. */
describe('campaign attribution of orders', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await salesKernel({ clock: new ManualClock('2025-03-31T12:00:00Z'), plugins: ['sales', 'sources'] });
  });
  afterAll(() => tk.close());

  it('reads svc_campaigns of the session, and falls back to utm_campaign (any key case) of its pageviews', async () => {
    const db = tk.kernel.db;
    const parsed = await visit(tk, { uid: 'a', time: at('2025-03-30T10:00:00'), pages: ['/', '/shop'] });
    const [second] = await db.select<{ ID: number }>(`SELECT ID FROM ${db.quote(db.table('statistics'))} WHERE session_id = ? ORDER BY ID DESC LIMIT 1`, [parsed]);
    await db.execute(`INSERT INTO ${db.quote(db.table('campaigns'))} (statistic_id, time, source, campaign) VALUES (?, ?, 'news', 'spring-letter')`, [second!.ID, at('2025-03-30T10:00:10')]);
    await visit(tk, { uid: 'b', time: at('2025-03-30T11:00:00'), parameters: 'UTM_Campaign=Black%20Friday&utm_source=ads' });
    await visit(tk, { uid: 'c', time: at('2025-03-30T12:00:00') });
    const order = (order_id: string, uid: string) => ({ type: 'order', order_id, uid, currency: 'EUR', total: 10, items: [{ product_id: 1, product_name: 'X', quantity: 1, price: 10 }], time: at('2025-03-30T13:00:00') });
    const res = await (await adminClient(tk)).post(`${tk.api}/ecommerce/events`, { json: { events: [order('1', 'a'), order('2', 'b'), order('3', 'c')] } });
    expect(res.body.accepted).toBe(3);
    const names = new Map((await rows(tk, 'ecommerce_campaigns')).map((c) => [Number(c.ID), c.name]));
    expect((await rows(tk, 'ecommerce_orders')).map((o) => names.get(Number(o.campaign_id)) ?? null)).toEqual(['spring-letter', 'Black Friday', null]);
  });
});
