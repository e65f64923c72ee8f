/**
 * The one way dashboard pages reach the REST API: the base and nonce come from
 * the admin layout, every call sends the nonce header, and answers unwrap the
 * `{ success, data }` envelope. A share-link session adds its token header here.
 */
export interface Api {
  get<T>(path: string, params?: Record<string, unknown>): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** A non-JSON answer (CSV export) as a blob. */
  download(path: string, params?: Record<string, unknown>): Promise<Blob>;
  url(path: string, params?: Record<string, unknown>): string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The refusal's `data`: `field`, and `problems` when several fields were refused. */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** Every refused field with its problem (`field: problem` of the message when the answer names one field). */
  problems(): Array<{ field: string; problem: string }> {
    if (Array.isArray(this.data.problems)) return this.data.problems as Array<{ field: string; problem: string }>;
    const field = typeof this.data.field === 'string' ? this.data.field : '';
    return [{ field, problem: field && this.message.startsWith(`${field}: `) ? this.message.slice(field.length + 2) : this.message }];
  }
}

function query(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

type Answer = { data?: unknown; message?: string; code?: string } | null;

/** The error of a refused answer: the server's message and code when it sent them. */
function refusal(res: Response, payload: Answer): ApiError {
  return new ApiError(payload?.message ?? `The server answered ${res.status}.`, res.status, payload?.code ?? 'svc_error', (payload?.data ?? {}) as Record<string, unknown>);
}

/** A body's own `site`, so the header's choice does not override it. */
function bodySite(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && 'site' in body ? { site: (body as { site: unknown }).site } : {};
}

export function createApi(root: HTMLElement = document.querySelector<HTMLElement>('main.content')!): Api {
  const base = root.dataset.apiBase ?? '';
  const auth: Record<string, string> = { 'X-Svc-Nonce': root.dataset.restNonce ?? '' };
  if (root.dataset.shareToken) auth['X-Svc-Share-Token'] = root.dataset.shareToken;
  const headers: Record<string, string> = { Accept: 'application/json', ...auth };
  // The site chosen in the admin header goes with every call unless the call names its own.
  const site = root.dataset.site;
  const withSite = (params: Record<string, unknown>) => (site && params.site === undefined ? { ...params, site } : params);
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = (await res.json().catch(() => null)) as Answer;
    if (!res.ok) throw refusal(res, payload);
    return payload?.data as T;
  };
  return {
    url: (path, params = {}) => `${base}${path}${query(withSite(params))}`,
    get: (path, params = {}) => call('GET', `${base}${path}${query(withSite(params))}`),
    send: (method, path, body) => call(method, `${base}${path}${query(withSite(bodySite(body)))}`, body),
    async download(path, params = {}) {
      const res = await fetch(`${base}${path}${query(withSite(params))}`, { credentials: 'same-origin', headers: auth });
      if (!res.ok) throw refusal(res, (await res.json().catch(() => null)) as Answer);
      return res.blob();
    },
  };
}
