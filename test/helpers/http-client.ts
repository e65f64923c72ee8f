export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  body: T;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | string[]>;
  /** Raw body with its own content type. */
  raw?: string | Buffer;
  redirect?: 'follow' | 'manual';
  /** Aborts the request, e.g. `AbortSignal.timeout(ms)` to bound a wait. */
  signal?: AbortSignal;
}

function appendQuery(url: URL, query: Record<string, unknown>, prefix = ''): void {
  for (const [key, value] of Object.entries(query)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object') appendQuery(url, value as Record<string, unknown>, name);
    else url.searchParams.append(name, String(value));
  }
}

/**
 * A small HTTP client for tests over real sockets: keeps cookies like a
 * browser (one jar per client) and parses JSON answers.
 */
export class HttpClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly defaults: Record<string, string> = {},
  ) {}

  /** A client with HTTP Basic credentials and no cookies. */
  withBasic(login: string, password: string): HttpClient {
    return new HttpClient(this.baseUrl, { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  async request<T = any>(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const url = new URL(pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`);
    if (options.query) appendQuery(url, options.query);
    const headers: Record<string, string> = { ...this.defaults, ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (options.form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(options.form)) for (const item of [v].flat()) params.append(k, item);
      body = params.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.raw !== undefined) {
      // A plain Uint8Array is a fetch body under both Node's and the DOM's typings.
      body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
    }
    const res = await fetch(url, { method, headers, body, redirect: options.redirect ?? 'manual', signal: options.signal });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('POST', path, options);
  }

  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
