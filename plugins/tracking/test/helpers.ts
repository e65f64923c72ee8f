import type { HttpResponse } from '../../../test/helpers/http-client';
import type { TestKernel } from '../../../test/helpers/test-kernel';

export const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
export const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export interface HitOptions {
  headers?: Record<string, string>;
  /** Send the payload as a plain object instead of the double-encoded string. */
  plain?: boolean;
  client?: ReturnType<TestKernel['client']>;
}

/** A page view as the browser client sends it. */
export function pageview(url: string, uid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { url, uid, fingerprint: false, user_agent: CHROME, referrer_url: '', time_on_page: 0, completed_goals: [], page_id: 0, page_type: 'page', ...extra };
}

/** A heartbeat: no user agent, time on page only. */
export function heartbeat(url: string, uid: string, seconds: number): Record<string, unknown> {
  return { url, uid, fingerprint: false, user_agent: '', time_on_page: seconds };
}

/** POST {api_base}/track with the body double-encoded, as the reference client does. */
export function track(tk: TestKernel, payload: unknown, options: HitOptions = {}): Promise<HttpResponse<Record<string, unknown>>> {
  const client = options.client ?? tk.client();
  const body = options.plain ? payload : JSON.stringify(payload);
  return client.post(`${tk.api}/track`, { json: body, headers: { 'x-forwarded-for': '203.0.113.9', ...options.headers } });
}

/** POST {base_url}/svc/endpoint with a raw text body, as sendBeacon does. */
export function beacon(tk: TestKernel, body: string, headers: Record<string, string> = {}): Promise<HttpResponse<Record<string, unknown>>> {
  return tk.client().post('/svc/endpoint', { raw: body, headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-forwarded-for': '203.0.113.9', ...headers } });
}

export async function rows<T = Record<string, unknown>>(tk: TestKernel, table: string, where = '1 = 1', args: unknown[] = []): Promise<T[]> {
  const db = tk.kernel.db;
  return db.select<T>(`SELECT * FROM ${db.quote(db.table(table))} WHERE ${where} ORDER BY 1`, args);
}

export async function count(tk: TestKernel, table: string, where = '1 = 1', args: unknown[] = []): Promise<number> {
  const db = tk.kernel.db;
  const [row] = await db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${db.quote(db.table(table))} WHERE ${where}`, args);
  return Number(row?.n ?? 0);
}

/** Sets tracking options the way the settings page stores them. */
export async function setOptions(tk: TestKernel, values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await tk.kernel.options.set(key, value);
}
