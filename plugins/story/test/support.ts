import { ManualClock, type PluginManifest } from '../../../core';
import { NOW, TZ, loadTraffic } from '../../../core/statistics/test/traffic';
import type { HttpClient, HttpResponse } from '../../../test/helpers/http-client';
import type { TestDatabase } from '../../../test/helpers/test-db';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

/** A parsed JSON answer; tests assert its fields one by one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface StoryKernel {
  tk: TestKernel;
  clock: ManualClock;
  /** The administrator over HTTP Basic with an application password (no nonce). */
  admin: HttpClient;
  /** POST `{api_base}/do_action/{action}` as the administrator. */
  action(action: string, body?: unknown): Promise<HttpResponse<Json>>;
  /** A share link made through `do_action/get_share_token`. */
  share(body?: Record<string, unknown>): Promise<{ token: string; url: string }>;
  /** A report made through the reports plugin's REST action; answers its id. */
  report(fields?: Record<string, unknown>): Promise<number>;
  /** A fresh browser-like client that opened `url` (a share URL), following redirects within the site; the last answer. */
  visit(url: string): Promise<{ client: HttpClient; res: HttpResponse<Json> }>;
  /** A REST GET of a share session, with its token header. */
  viewerGet(client: HttpClient, token: string, path: string, query?: Record<string, unknown>): Promise<HttpResponse<Json>>;
  close(): Promise<void>;
}

/**
 * A kernel with tracking, sources, reports and story (and sales on the
 * business license), the statistics test traffic of core/statistics/test
 * loaded, on the clock of those figures (2026-01-20, Europe/Amsterdam).
 */
export async function startStoryKernel(
  options: { license?: 'creator' | 'business'; database?: TestDatabase; plugins?: string[]; inline?: PluginManifest[] } = {},
): Promise<StoryKernel> {
  const license = options.license ?? 'creator';
  const clock = new ManualClock(NOW);
  const plugins = options.plugins ?? ['tracking', 'sources', 'reports', 'story', ...(license === 'business' ? ['sales'] : [])];
  const inline = options.inline ?? [];
  const tk = await createTestKernel({ plugins: plugins.filter((p) => !inline.some((m) => m.name === p)), inline, clock, database: options.database, env: { SVC_LICENSE: license, SVC_TIMEZONE: TZ } });
  for (const name of plugins) {
    if (!tk.kernel.isLoaded(name)) {
      const reason = tk.kernel.plugins.find((p) => p.name === name)?.reason;
      await tk.close();
      throw new Error(`the ${name} plugin did not load: ${reason}`);
    }
  }
  if (!options.database) {
    await loadTraffic(tk.kernel.db);
    await tk.kernel.statistics.folder.foldPending();
  }
  const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
  const admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 'story tests')).password);
  const k: StoryKernel = {
    tk,
    clock,
    admin,
    action: (action, body = {}) => admin.post(`${tk.api}/do_action/${action}`, { json: body }),
    async share(body = {}) {
      const res = await k.action('get_share_token', body);
      if (res.status !== 200) throw new Error(`get_share_token failed: ${res.status} ${res.text}`);
      return { token: res.body.share_token as string, url: res.body.share_url as string };
    },
    async report(fields = {}) {
      const res = await admin.post(`${tk.api}/do_action/report/create`, {
        json: { report: { name: 'Weekly story', format: 'story', recipients: ['owner@example.com'], content: [{ id: 'pages' }], ...fields } },
      });
      if (res.status !== 200) throw new Error(`report create failed: ${res.status} ${res.text}`);
      return res.body.data.report.id as number;
    },
    async visit(url) {
      const client = tk.client();
      return { client, res: await follow(client, url) };
    },
    viewerGet: (client, token, path, query) => client.get(`${tk.api}${path}`, { query, headers: { 'x-svc-share-token': token } }),
    close: () => tk.close(),
  };
  return k;
}

/** The `data-*` attributes of the admin layout's main element, or of the story root. */
export function dataAttribute(html: string, name: string): string | undefined {
  const match = new RegExp(`data-${name}="([^"]*)"`).exec(html);
  return match?.[1]?.replace(/&#34;/g, '"').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/** GET `url`, following up to three redirects within the site as a browser would. */
export async function follow(client: HttpClient, url: string): Promise<HttpResponse<Json>> {
  let res = await client.get(url);
  for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) {
    const location = res.headers.get('location')!;
    if (/^https?:/.test(location) && !location.startsWith(client.baseUrl)) break;
    res = await client.get(location);
  }
  return res;
}
