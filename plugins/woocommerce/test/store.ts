import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A WooCommerce store's REST API (the outside world), serving fixed subscriptions and orders. */
export interface FakeStore {
  url: string;
  requests: string[];
  subscriptions: Array<{ id: number; start_date_gmt: string } & Record<string, unknown>>;
  orders: Map<number, Array<Record<string, unknown>>>;
  /** Refunds by order id. */
  refunds: Map<number, Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function startStore(key: string, secret: string): Promise<FakeStore> {
  const store: Omit<FakeStore, 'url' | 'close'> = { requests: [], subscriptions: [], orders: new Map(), refunds: new Map() };
  const auth = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://store');
    store.requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== auth) return send(401, { code: 'woocommerce_rest_cannot_view' });
    const list = /^\/wp-json\/wc\/v3\/subscriptions$/.exec(url.pathname);
    const one = /^\/wp-json\/wc\/v3\/subscriptions\/(\d+)$/.exec(url.pathname);
    const orders = /^\/wp-json\/wc\/v3\/subscriptions\/(\d+)\/orders$/.exec(url.pathname);
    const refunds = /^\/wp-json\/wc\/v3\/orders\/(\d+)\/refunds$/.exec(url.pathname);
    if (list) {
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const page = Number(url.searchParams.get('page') ?? 1);
      const sorted = [...store.subscriptions].sort((a, b) => a.start_date_gmt.localeCompare(b.start_date_gmt) || a.id - b.id);
      return send(200, sorted.slice((page - 1) * perPage, page * perPage), { 'x-wp-totalpages': String(Math.max(1, Math.ceil(sorted.length / perPage))) });
    }
    if (one) {
      const found = store.subscriptions.find((s) => s.id === Number(one[1]));
      return found ? send(200, found) : send(404, { code: 'woocommerce_rest_invalid_id' });
    }
    if (orders) return send(200, store.orders.get(Number(orders[1])) ?? []);
    if (refunds) return send(200, store.refunds.get(Number(refunds[1])) ?? []);
    send(404, { code: 'rest_no_route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...store,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** WooCommerce's GMT date form: no zone, seconds precision. */
export const wcDate = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 19);
