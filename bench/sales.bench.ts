import { isoDay } from '../core/statistics/dates';
import type { Bench } from './run';
import { benchDialects, printBounds, startBenchKernel, timeRequests } from './support';

const ORDERS = Number(process.env.SVC_BENCH_ORDERS || 20_000);
const SUBSCRIPTIONS = Math.round(ORDERS / 10);
const DAYS = 365;
const DAY = 86_400;
const RUNS = Number(process.env.SVC_BENCH_RUNS || 20);
const WARMUP = Number(process.env.SVC_BENCH_WARMUP ?? 2);
const TARGET_P95_MS = 300;
const TARGET_RATIO = 3;
const TARGET_EVENTS_PER_S = 2_000;

const E = '/data/ecommerce';
/**
 * Every request the sales tab makes for one period (plugins/sales/client/*.ts):
 * the shop panels, the products table with its details view (first page,
 * a page sorted by revenue) and CSV, the subscription panels in each view,
 * the plans table and its CSV. The tab always names the currency.
 */
const TAB: Array<{ name: string; path: string; params?: Record<string, string> }> = [
  { name: 'sales', path: `${E}/sales` },
  { name: 'sales-funnel', path: `${E}/sales-funnel` },
  { name: 'top-performers', path: `${E}/top-performers` },
  { name: 'quick-wins', path: `${E}/quick-wins` },
  { name: 'sales_products', path: `${E}/datatable/sales_products`, params: { limit: '20' } },
  { name: 'sales_products details', path: `${E}/datatable/sales_products`, params: { details: '1', limit: '50' } },
  { name: 'sales_products sorted p2', path: `${E}/datatable/sales_products`, params: { details: '1', limit: '50', offset: '50', order_by: 'revenue', order: 'asc' } },
  { name: 'sales_products csv', path: `${E}/datatable/sales_products`, params: { details: '1', format: 'csv' } },
  { name: 'subscriptions', path: `${E}/subscriptions` },
  { name: 'revenue-chart revenue', path: `${E}/subscriptions-revenue-chart`, params: { chart_mode: 'revenue' } },
  { name: 'revenue-chart sales', path: `${E}/subscriptions-revenue-chart`, params: { chart_mode: 'sales' } },
  { name: 'distribution gateways', path: `${E}/subscriptions-distribution`, params: { distribution_view: 'gateways' } },
  { name: 'distribution currencies', path: `${E}/subscriptions-distribution`, params: { distribution_view: 'currencies' } },
  { name: 'distribution countries', path: `${E}/subscriptions-distribution`, params: { distribution_view: 'countries' } },
  { name: 'subscriptions-retention', path: `${E}/subscriptions-retention`, params: { product_id: '0' } },
  { name: 'subscription_products', path: `${E}/datatable/subscription_products`, params: { limit: '20' } },
  { name: 'subscription_products csv', path: `${E}/datatable/subscription_products`, params: { details: '1', format: 'csv' } },
];

/** A repeatable pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A year of shop events: per order a visit with four product views, two carts and a checkout; subscriptions with monthly renewals. */
function shopEvents(now: number): { sessions: Array<[string, number]>; events: Array<Record<string, unknown>> } {
  const rnd = random(42);
  const sessions: Array<[string, number]> = [];
  const events: Array<Record<string, unknown>> = [];
  for (let i = 0; i < ORDERS; i++) {
    const uid = `v${i}`;
    const time = now - Math.floor(rnd() * DAYS * DAY);
    const product = 1 + Math.floor(rnd() * 200);
    const currency = rnd() < 0.2 ? 'USD' : 'EUR';
    sessions.push([uid, time - 300]);
    for (let v = 0; v < 4; v++) events.push({ type: 'product_view', uid, product_id: product + v, url: `https://shop.example/p/${product + v}`, time: time - 240 + v });
    for (let c = 0; c < 2; c++) events.push({ type: 'add_to_cart', uid, product_id: product + c, product_name: `Product ${product + c}`, quantity: 1, price: 10 + c, currency, time: time - 120 + c });
    events.push({ type: 'checkout_visit', uid, url: 'https://shop.example/checkout', time: time - 60 });
    events.push({
      type: 'order',
      id: `o${i}`,
      order_id: `o${i}`,
      uid,
      currency,
      total: 21,
      items: [{ product_id: product, product_name: `Product ${product}`, quantity: 1, price: 10 }, { product_id: product + 1, product_name: `Product ${product + 1}`, quantity: 1, price: 11 }],
      time,
    });
  }
  for (let s = 0; s < SUBSCRIPTIONS; s++) {
    const start = now - Math.floor(rnd() * DAYS * DAY);
    const plan = { subscription_id: `s${s}`, product_id: 900 + (s % 5), product_name: `Plan ${s % 5}`, amount: 15, currency: s % 4 ? 'EUR' : 'USD', billing_period: 'month', billing_interval: 1, gateway: s % 3 ? 'stripe' : 'paypal', country_code: ['DE', 'FR', 'US', 'NL'][s % 4] };
    const end = rnd() < 0.3 ? start + Math.floor(rnd() * 200 * DAY) : now;
    events.push({ type: 'subscription', event: 'created', ...plan, time: start });
    for (let t = start + 30 * DAY; t < Math.min(end, now); t += 30 * DAY) events.push({ type: 'subscription', event: 'renewed', ...plan, time: t });
    if (end < now) events.push({ type: 'subscription', event: 'canceled', ...plan, time: end });
  }
  return { sessions, events };
}

/** Every tab request of both periods; prints p50/p95 and the bounds. */
async function measure(api: string, auth: string, now: number, label: string, log: (line: string) => void): Promise<void> {
  const today = isoDay(now, 'UTC');
  const periods = {
    '30 days': { date_start: isoDay(now - 29 * DAY, 'UTC'), date_end: today },
    '12 months': { date_start: isoDay(now - 364 * DAY, 'UTC'), date_end: today },
  };
  const requests = Object.entries(periods).flatMap(([period, range]) =>
    TAB.map((q) => ({ period, name: q.name, url: `${api}${q.path}?${new URLSearchParams({ currency: 'EUR', ...range, ...q.params })}` })),
  );
  const { p95 } = await timeRequests(requests, { auth, runs: RUNS, warmup: WARMUP, label, log });
  printBounds(p95, TAB.map((q) => q.name), { short: '30 days', long: '12 months', targetMs: TARGET_P95_MS, targetRatio: TARGET_RATIO, label, log });
}

const bench: Bench = {
  name: `sales ingestion and the sales tab's requests at ${ORDERS.toLocaleString('en')} orders over ${DAYS} days`,
  async run(log) {
    for (const dialect of benchDialects()) {
      const bk = await startBenchKernel(dialect, { SVC_LICENSE: 'business', SVC_PLUGINS: 'sales' });
      try {
        const { kernel } = bk;
        const admin = (await kernel.users.findByLogin('admin'))!;
        const auth = `Basic ${Buffer.from(`admin:${(await kernel.appPasswords.create(admin, 'bench')).password}`).toString('base64')}`;
        const now = kernel.clock.unix();
        const { sessions, events } = shopEvents(now);
        const table = kernel.db.quote(kernel.db.table('sessions'));
        for (let i = 0; i < sessions.length; i += 500) {
          const chunk = sessions.slice(i, i + 500);
          await kernel.db.execute(`INSERT INTO ${table} (uid, time, last_time) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`, chunk.flatMap(([uid, t]) => [uid, t, t + 600]));
        }
        const started = performance.now();
        for (let i = 0; i < events.length; i += 1000) {
          const res = await fetch(`${bk.api}/ecommerce/events`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({ events: events.slice(i, i + 1000) }),
          });
          const body = (await res.json()) as { accepted: number; rejected: unknown[] };
          if (res.status !== 200 || body.rejected.length) throw new Error(`ingestion failed: ${JSON.stringify(body).slice(0, 300)}`);
        }
        const seconds = (performance.now() - started) / 1000;
        const rate = events.length / seconds;
        log(`[${dialect}] ingested ${events.length.toLocaleString('en')} events in ${seconds.toFixed(1)} s: ${Math.round(rate).toLocaleString('en')} events/s (target >= ${TARGET_EVENTS_PER_S}): ${rate >= TARGET_EVENTS_PER_S ? 'met' : 'MISSED'}`);

        const folding = performance.now();
        // The hourly job folds the finished days into the shop roll-ups (the whole history at once here).
        await kernel.hooks.doAction('svc_every_hour');
        log(`[${dialect}] hourly job after the ingestion: ${((performance.now() - folding) / 1000).toFixed(1)} s`);
        await measure(bk.api, auth, now, dialect, log);
      } finally {
        await bk.stop();
      }
    }
  },
};

export default bench;
