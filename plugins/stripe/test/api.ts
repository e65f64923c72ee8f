import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

/** The Stripe API (the outside world): the objects the integration reads, served as Stripe serves them. */
export interface FakeStripe {
  url: string;
  requests: string[];
  subscriptions: Json[];
  invoices: Json[];
  lineItems: Map<string, Json[]>;
  /** Checkout Sessions, listed by `payment_intent`. */
  sessions: Json[];
  /** Refunds, listed by `charge`. */
  refunds: Json[];
  close(): Promise<void>;
}

const list = (url: URL, items: Json[]) => {
  const limit = Number(url.searchParams.get('limit') ?? 10);
  const after = url.searchParams.get('starting_after');
  const from = after ? items.findIndex((i) => i.id === after) + 1 : 0;
  const data = items.slice(from, from + limit);
  return { object: 'list', data, has_more: from + limit < items.length, url: url.pathname };
};

export async function startStripe(key: string): Promise<FakeStripe> {
  const api: Omit<FakeStripe, 'url' | 'close'> = { requests: [], subscriptions: [], invoices: [], lineItems: new Map(), sessions: [], refunds: [] };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stripe');
    api.requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${key}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    const one = /^\/v1\/subscriptions\/([\w-]+)$/.exec(url.pathname);
    const lines = /^\/v1\/checkout\/sessions\/([\w-]+)\/line_items$/.exec(url.pathname);
    if (url.pathname === '/v1/subscriptions') {
      const newestFirst = [...api.subscriptions].sort((a, b) => Number(b.created) - Number(a.created));
      return send(200, list(url, newestFirst));
    }
    if (one) {
      const found = api.subscriptions.find((s) => s.id === one[1]);
      return found ? send(200, found) : send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
    }
    if (lines) return send(200, list(url, api.lineItems.get(lines[1]!) ?? []));
    if (url.pathname === '/v1/checkout/sessions') return send(200, list(url, api.sessions.filter((s) => s.payment_intent === url.searchParams.get('payment_intent'))));
    if (url.pathname === '/v1/refunds') return send(200, list(url, api.refunds.filter((r) => r.charge === url.searchParams.get('charge'))));
    if (url.pathname === '/v1/invoices') {
      const sub = url.searchParams.get('subscription');
      return send(200, list(url, api.invoices.filter((i) => i.subscription === sub && i.status === url.searchParams.get('status'))));
    }
    send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { ...api, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
