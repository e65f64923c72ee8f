import { ManualClock, type Site } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';
import { adminClient, at, count, salesKernel } from './support';

type Json = Record<string, any>;

/**
 * The roll-ups answer exactly what the raw events answer: a hand-built shop
 * of two sites (the second in Amsterdam time) with orders in two
 * currencies, refunds, carts with and without a known session, visitors
 * who return and who order on another day than they visit, campaigns,
 * countries and devices, events of today and events arriving late for
 * folded days. Every figure of the sales tab is asked of many windows and
 * filters three ways: from the raw events alone (nothing folded), from
 * the folded days, and with stale days read raw again.
 */
jest.setTimeout(120_000);

describe('shop roll-ups', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let second: Site;
  const clock = new ManualClock('2024-12-15T08:00:00Z');
  const q = (name: string) => tk.kernel.db.quote(tk.kernel.db.table(name));

  /** A tracked visit of `site`: its session (country, device) and a pageview carrying `parameters`. */
  async function visit(site: number, uid: string, time: string, country: string, device: string, parameters = ''): Promise<void> {
    const db = tk.kernel.db;
    const ignore = db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const city = -(country.charCodeAt(0) * 100 + country.charCodeAt(1));
    await db.execute(`${ignore} INTO ${q('locations')} (city_code, country_code) VALUES (?, ?)`, [city, country]);
    await db.execute(`${ignore} INTO ${q('devices')} (name) VALUES (?)`, [device]);
    const [dv] = await db.select<{ ID: number }>(`SELECT ID FROM ${q('devices')} WHERE name = ?`, [device]);
    const { id } = await db.insert(`INSERT INTO ${q('sessions')} (site_id, uid, time, last_time, city_code, device_id, host) VALUES (?, ?, ?, ?, ?, ?, 'shop.example')`, [
      site,
      uid,
      at(time),
      at(time) + 600,
      city,
      Number(dv!.ID),
    ]);
    await db.insert(`INSERT INTO ${q('statistics')} (site_id, page_url, parameters, time, uid, session_id) VALUES (?, '/', ?, ?, ?, ?)`, [site, parameters, at(time), uid, id]);
  }

  const ingest = async (events: unknown[], site?: number) => {
    const res = await admin.post(`${tk.api}/ecommerce/events`, { json: site === undefined ? { events } : { site, events } });
    expect({ status: res.status, rejected: res.body.rejected }).toEqual({ status: 200, rejected: [] });
  };
  const item = (product_id: number, quantity: number, price: number) => ({ product_id, product_name: `Product ${product_id}`, quantity, price });
  const order = (order_id: string, uid: string, currency: string, time: string, items: ReturnType<typeof item>[]) => ({
    type: 'order',
    order_id,
    uid,
    currency,
    total: items.reduce((n, i) => n + i.quantity * i.price, 0) + 2.5,
    items,
    time: at(time),
  });
  const cart = (uid: string, product_id: number, currency: string, time: string) => ({ type: 'add_to_cart', uid, product_id, product_name: `Product ${product_id}`, quantity: 1, price: 9.99, currency, time: at(time) });
  const view = (uid: string, product_id: number, time: string) => ({ type: 'product_view', uid, product_id, url: `https://shop.example/p/${product_id}`, time: at(time) });
  const checkout = (uid: string, time: string) => ({ type: 'checkout_visit', uid, url: 'https://shop.example/checkout', time: at(time) });

  /** Every answer of the tab's shop requests (and the datatable's groupings) for a set of windows and filters of both sites. */
  async function answers(): Promise<Record<string, unknown>> {
    const windows = [
      { date_start: '2025-01-01', date_end: '2025-04-20' },
      { date_start: '2024-12-01', date_end: '2025-03-31' },
      { date_start: '2025-03-01', date_end: '2025-03-31' },
      { date_start: '2025-03-10', date_end: '2025-04-20' },
      { date_start: '2025-04-01', date_end: '2025-04-20' },
      { date_start: '2025-02-15', date_end: '2025-03-14' },
      { date_start: '2025-03-20', date_end: '2025-03-20' },
      { date_start: '2025-04-20', date_end: '2025-04-21' },
    ];
    // Two filters of one dimension narrow to nothing, as the raw events do.
    const filters = [undefined, 'country:DE', 'device:Mobile', 'country:DE,device:Desktop', 'country:US,country:DE'];
    const requests: Array<[string, Json]> = [];
    for (const window of windows) {
      for (const f of filters) {
        const base = { ...window, ...(f ? { filters: f } : {}) };
        requests.push(['sales', base], ['sales', { ...base, currency: 'USD' }], ['top-performers', base], ['sales-funnel', base], ['quick-wins', base]);
        requests.push(['datatable/sales_products', base], ['datatable/sales_products', { ...base, group_by: 'product,source' }], ['datatable/sales_products', { ...base, group_by: 'source' }]);
      }
      requests.push(['sales-funnel', { ...window, selected_pages: '/p/2' }], ['top-performers', { ...window, currency: 'USD' }]);
      requests.push(['sales', { ...window, site: second.id }], ['datatable/sales_products', { ...window, site: second.id }], ['top-performers', { ...window, site: second.id }]);
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < requests.length; i += 8) {
      await Promise.all(
        requests.slice(i, i + 8).map(async ([type, query]) => {
          const res = await admin.get(`${tk.api}/data/ecommerce/${type}`, { query });
          out[`${type} ${JSON.stringify(query)}`] = { status: res.status, body: res.body };
        }),
      );
    }
    return out;
  }

  const foldState = async () =>
    (await tk.kernel.db.select<Json>(`SELECT site_id, folded_from, folded_to FROM ${q('ecommerce_fold_state')} ORDER BY site_id`)).map((r) => ({
      site_id: Number(r.site_id),
      folded_from: Number(r.folded_from),
      folded_to: Number(r.folded_to),
    }));
  /** Forgets every fold: the figures come from the raw events alone. */
  const unfold = async () => {
    for (const table of ['ecommerce_fold_state', 'ecommerce_stale_days']) await tk.kernel.db.execute(`DELETE FROM ${q(table)}`);
  };
  const hourly = () => tk.kernel.hooks.doAction('svc_every_hour');

  beforeAll(async () => {
    tk = await salesKernel({ clock });
    admin = await adminClient(tk);
    second = await tk.kernel.sites.add({ name: 'Second shop', domain: 'second.example', timezone: 'Europe/Amsterdam' });
    clock.set('2025-04-20T15:00:00Z');
    await visit(1, 'u1', '2025-03-03T09:00:00', 'DE', 'Desktop', 'utm_campaign=spring');
    await visit(1, 'u1', '2025-03-20T09:00:00', 'DE', 'Desktop');
    await visit(1, 'u1', '2025-04-05T09:00:00', 'DE', 'Mobile');
    await visit(1, 'u2', '2025-03-10T11:00:00', 'US', 'Mobile', 'utm_campaign=spring');
    await visit(1, 'u3', '2025-04-20T09:00:00', 'DE', 'Mobile');
    await visit(1, 'u4', '2025-03-15T12:00:00', 'FR', 'Desktop', 'utm_source=newsletter');
    await visit(1, 'u4', '2025-04-10T12:00:00', 'FR', 'Desktop');
    await visit(1, 'u5', '2025-02-25T12:00:00', 'DE', 'Desktop');
    await visit(1, 'u6', '2025-03-31T23:50:00', 'US', 'Desktop', 'utm_campaign=late');
    await visit(1, 'u7', '2025-03-12T08:00:00', 'DE', 'Mobile');
    await visit(1, 'u7', '2025-03-13T08:00:00', 'US', 'Mobile');
    await visit(1, 'u8', '2025-03-05T10:00:00', 'DE', 'Desktop');
    await visit(1, 'u10', '2025-04-02T10:00:00', 'FR', 'Mobile');
    await visit(second.id, 'w1', '2025-03-31T22:30:00', 'NL', 'Desktop');
    await visit(second.id, 'w2', '2025-04-19T10:00:00', 'NL', 'Mobile');
    await ingest([
      view('u1', 1, '2025-03-03T09:01:00'),
      cart('u1', 1, 'EUR', '2025-03-03T09:02:00'),
      checkout('u1', '2025-03-03T09:03:00'),
      order('O1', 'u1', 'EUR', '2025-03-03T10:00:00', [item(1, 2, 10), item(2, 1, 4.99)]),
      view('u1', 2, '2025-03-20T09:01:00'),
      cart('u1', 2, 'EUR', '2025-03-20T09:02:00'),
      cart('u1', 3, 'EUR', '2025-03-20T23:59:00'),
      order('O2', 'u1', 'USD', '2025-04-05T09:30:00', [item(3, 1, 30)]),
      view('u2', 2, '2025-03-10T11:01:00'),
      view('u2', 2, '2025-03-10T11:02:00'),
      order('O3', 'u2', 'EUR', '2025-03-12T10:00:00', [item(2, 3, 4.99)]),
      view('u3', 1, '2025-04-20T09:01:00'),
      cart('u3', 1, 'EUR', '2025-04-20T09:02:00'),
      order('O4', 'u3', 'EUR', '2025-04-20T09:30:00', [item(1, 1, 12)]),
      cart('u4', 4, 'EUR', '2025-03-15T12:01:00'),
      checkout('u4', '2025-03-15T12:02:00'),
      cart('u4', 4, 'EUR', '2025-04-10T12:01:00'),
      order('O5', 'u4', 'EUR', '2025-04-10T12:05:00', [item(4, 1, 55)]),
      order('O6', 'u5', 'EUR', '2025-03-02T10:00:00', [item(1, 1, 10)]),
      order('O7', '', 'EUR', '2025-03-25T10:00:00', [item(5, 2, 7)]),
      order('O8', 'u6', 'USD', '2025-04-01T00:05:00', [item(3, 2, 30)]),
      cart('u9', 5, 'USD', '2025-03-18T10:00:00'),
      cart('u9', 5, 'USD', '2025-03-19T10:00:00'),
      order('O9', 'u9', 'USD', '2025-03-19T10:05:00', [item(5, 1, 9.99)]),
      cart('u7', 1, 'EUR', '2025-03-12T08:01:00'),
      view('u7', 1, '2025-03-13T08:01:00'),
      { type: 'refund', refund_id: 'R1', order_id: 'O1', amount: 10, items: [{ product_id: 1, quantity: 1 }], time: at('2025-04-02T10:00:00') },
      { type: 'refund', refund_id: 'R2', order_id: 'O3', time: at('2025-03-20T10:00:00') },
      { type: 'refund', refund_id: 'R3', order_id: 'O5', amount: 5, time: at('2025-04-20T11:00:00') },
    ]);
    await ingest(
      [
        cart('w1', 7, 'EUR', '2025-03-31T22:31:00'),
        order('P1', 'w1', 'EUR', '2025-03-31T22:40:00', [item(7, 1, 20)]),
        order('P2', 'w2', 'GBP', '2025-04-19T10:05:00', [item(8, 1, 15)]),
        order('P3', 'w2', 'EUR', '2025-04-20T10:05:00', [item(7, 2, 20)]),
      ],
      second.id,
    );
  });
  afterAll(() => tk?.close());

  let raw: Record<string, unknown>;

  it('answers from the raw events while nothing is folded', async () => {
    // Writes made the sites' fold states, with no day folded yet.
    expect((await foldState()).map((r) => Number(r.folded_to) - Number(r.folded_from))).toEqual([0, 0]);
    raw = await answers();
    const march = raw[`sales ${JSON.stringify({ date_start: '2025-03-01', date_end: '2025-03-31' })}`] as Json;
    // O1, O3, O6 and O7 (73.96), less the refund of O3 on 20 March.
    expect(march.body.data.revenue.current).toEqual({ total_orders: 4, total_revenue: 56.49, average_order_value: 14.12, total_refunded: 17.47, currency: 'EUR' });
  });

  it('answers the same from the folded days: whole months, single days, and today from the raw events', async () => {
    await hourly();
    expect(await foldState()).toEqual([
      { site_id: 1, folded_from: at('2024-12-01T00:00:00'), folded_to: at('2025-04-20T00:00:00') },
      { site_id: second.id, folded_from: at('2024-11-30T23:00:00'), folded_to: at('2025-04-19T22:00:00') },
    ]);
    // March, and the first quarter of 2025, are summed whole (the months before hold no sale).
    const blocks = await tk.kernel.db.select<Json>(`SELECT DISTINCT month, months FROM ${q('ecommerce_product_months')} WHERE site_id = 1 ORDER BY month, months`);
    expect(blocks.map((b) => [Number(b.month), Number(b.months)])).toEqual(
      [['2025-01-01', 3], ['2025-03-01', 1]].map(([day, months]) => [at(`${day}T00:00:00`), months]),
    );
    expect(await count(tk, 'ecommerce_reach_months')).toBeGreaterThan(0);
    expect(await count(tk, 'ecommerce_unvisited_orders')).toBeGreaterThan(0);
    expect(await answers()).toEqual(raw);
  });

  it('marks the folded days late events change, reads them raw until they are folded again, and answers as the raw events do', async () => {
    await ingest([
      // u1 ordered between the visit of 3 March and the one of 20 March: both days convert differently now.
      order('O10', 'u1', 'EUR', '2025-03-14T10:00:00', [item(6, 1, 25)]),
      // An earlier add-to-cart of u9's cart: 18 March is no longer the cart's first day.
      cart('u9', 5, 'USD', '2025-03-17T10:00:00'),
      view('u4', 4, '2025-03-16T12:00:00'),
      { type: 'refund', refund_id: 'R4', order_id: 'O6', amount: 3, time: at('2025-03-28T10:00:00') },
      // A visitor of 5 March orders today: that visit converts in the windows holding both.
      order('O11', 'u8', 'EUR', '2025-04-20T14:00:00', [item(1, 1, 10)]),
    ]);
    expect(await tk.kernel.services.get('sales')!.withdrawRefund(1, 'api', 'R2')).toBe(true);
    // Tracking writes a hit of 7 March (an import): u10's visit of 2 April is no longer its first.
    await visit(1, 'u10', '2025-03-07T10:00:00', 'FR', 'Mobile');
    const hit = { page_url: '/', parameters: '', fragment: '', page_id: 0, page_type: '', time: at('2025-03-07T10:00:00'), uid: 'u10', time_on_page: 0, session_id: 0 };
    await tk.kernel.hooks.doAction('svc_after_create_statistic', 0, hit);
    const stale = (await tk.kernel.db.select<Json>(`SELECT day FROM ${q('ecommerce_stale_days')} WHERE site_id = 1 ORDER BY day`)).map((r) => Number(r.day));
    expect(stale).toEqual(expect.arrayContaining(['2025-03-05', '2025-03-07', '2025-03-14', '2025-03-16', '2025-03-17', '2025-03-18', '2025-03-20', '2025-03-28', '2025-04-02'].map((d) => at(`${d}T00:00:00`))));
    const withStaleDays = await answers();
    await tk.kernel.hooks.doAction('svc_sales_fold', 1);
    expect(await count(tk, 'ecommerce_stale_days')).toBe(0);
    const refolded = await answers();
    await unfold();
    const fromRaw = await answers();
    expect(withStaleDays).toEqual(fromRaw);
    expect(refolded).toEqual(fromRaw);
    expect(fromRaw).not.toEqual(raw);
  });

  it('reads yesterday raw until the hourly job folds it, then from the roll-ups', async () => {
    await hourly();
    clock.set('2025-04-21T09:00:00Z');
    const beforeFold = await answers();
    await hourly();
    expect((await foldState())[0]).toEqual({ site_id: 1, folded_from: at('2024-12-01T00:00:00'), folded_to: at('2025-04-21T00:00:00') });
    expect(await answers()).toEqual(beforeFold);
  });

  it('folds a site again from the start when its timezone changes', async () => {
    await tk.kernel.sites.update(second.id, { timezone: 'America/New_York' });
    const fromRaw = await answers();
    await hourly();
    expect((await foldState())[1]).toEqual({ site_id: second.id, folded_from: at('2024-12-01T05:00:00'), folded_to: at('2025-04-21T04:00:00') });
    expect(await answers()).toEqual(fromRaw);
  });

  it('removes the roll-ups with their site', async () => {
    await tk.kernel.sites.remove(second.id);
    for (const table of ['ecommerce_order_days', 'ecommerce_product_months', 'ecommerce_reach_days', 'ecommerce_fold_state']) {
      const [row] = await tk.kernel.db.select<Json>(`SELECT COUNT(*) AS n FROM ${q(table)} WHERE site_id = ?`, [second.id]);
      expect({ table, n: Number(row!.n) }).toEqual({ table, n: 0 });
    }
  });
});
