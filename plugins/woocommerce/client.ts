import type { PluginSettings } from '../../core';
import { CONSUMER_KEY, CONSUMER_SECRET, STORE_URL } from './settings';
import type { WcOrder, WcRefund, WcSubscription } from './types';

const TIMEOUT_MS = 15_000;

/** The store's REST API (`/wp-json/wc/v3`), read with the consumer key. */
export class WooClient {
  constructor(private readonly settings: PluginSettings) {}

  async configured(): Promise<boolean> {
    const [url, key, secret] = await Promise.all([STORE_URL, CONSUMER_KEY, CONSUMER_SECRET].map((k) => this.settings.get<string>(k)));
    return Boolean(url && key && secret);
  }

  private async get<T>(path: string, query: Record<string, string | number>): Promise<{ body: T; totalPages: number }> {
    const base = await this.settings.get<string>(STORE_URL);
    const key = await this.settings.get<string>(CONSUMER_KEY);
    const secret = await this.settings.get<string>(CONSUMER_SECRET);
    const url = new URL(`${base}/wp-json/wc/v3${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const res = await fetch(url, {
      headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`WooCommerce answered ${res.status} to GET ${path}`);
    return { body: (await res.json()) as T, totalPages: Number(res.headers.get('x-wp-totalpages') ?? 1) };
  }

  /** One page of subscriptions, oldest first. */
  subscriptions(page: number, perPage: number): Promise<{ body: WcSubscription[]; totalPages: number }> {
    return this.get<WcSubscription[]>('/subscriptions', { page, per_page: perPage, orderby: 'date', order: 'asc' });
  }

  async subscription(id: number): Promise<WcSubscription> {
    return (await this.get<WcSubscription>(`/subscriptions/${id}`, {})).body;
  }

  /** The refunds of an order, with their lines. */
  async orderRefunds(id: number): Promise<WcRefund[]> {
    return (await this.get<WcRefund[]>(`/orders/${id}/refunds`, { per_page: 100 })).body;
  }

  /** The orders of a subscription (its parent order and renewals). */
  async subscriptionOrders(id: number): Promise<WcOrder[]> {
    return (await this.get<WcOrder[]>(`/subscriptions/${id}/orders`, { per_page: 100 })).body;
  }
}
