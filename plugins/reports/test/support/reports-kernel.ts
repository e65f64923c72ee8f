import { ManualClock, type PluginManifest } from '../../../../core';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import type { HttpClient, HttpResponse } from '../../../../test/helpers/http-client';
import type { TestDatabase } from '../../../../test/helpers/test-db';
import { type TestDnsServer, type TestSmtpServer, startDnsServer, startSmtpServer } from '../../../../test/helpers/outside-servers';
import type { Json } from './json';

export interface ReportsTestKernel {
  tk: TestKernel;
  clock: ManualClock;
  smtp: TestSmtpServer;
  dns: TestDnsServer;
  /** The administrator over HTTP Basic with an application password (no nonce, not bound to the clock). */
  admin: HttpClient;
  /** GET `{api_base}{path}` as the administrator over HTTP Basic, with the `svc_nonce` every caller of the report lists sends. */
  get<T = Json>(path: string): Promise<HttpResponse<T>>;
  /** POST `do_action/report/{action}` as the administrator. */
  action(action: string, body: unknown): Promise<HttpResponse<Json>>;
  close(): Promise<void>;
}

/** Domains the test DNS answers: example.com has MX, a-only.test only an A record; anything else does not exist. */
export const ZONES = { 'example.com': { mx: ['mx.example.com'] }, 'a-only.test': { a: ['192.0.2.1'] } };

/** A kernel with tracking and reports on the creator license, a real SMTP server and a DNS server the test controls. */
export async function startReportsKernel(options: {
  timezone?: string;
  now?: string;
  inline?: PluginManifest[];
  /** Built-in plugins loaded besides tracking and reports (e.g. story). */
  plugins?: string[];
  database?: TestDatabase;
  smtp?: TestSmtpServer;
  dns?: TestDnsServer;
} = {}): Promise<ReportsTestKernel> {
  const smtp = options.smtp ?? (await startSmtpServer());
  const dns = options.dns ?? (await startDnsServer(ZONES));
  const clock = new ManualClock(options.now ?? '2026-03-02T08:00:00Z');
  const booting = createTestKernel({
    plugins: ['tracking', 'reports', ...(options.plugins ?? [])],
    inline: options.inline,
    clock,
    database: options.database,
    env: {
      SVC_LICENSE: 'creator',
      SVC_TIMEZONE: options.timezone ?? 'UTC',
      SVC_SMTP_URL: smtp.url,
      SVC_DNS_SERVERS: dns.server,
      SVC_ADMIN_EMAIL: 'admin@example.com',
    },
  });
  const tk = await booting.catch(async (err: unknown) => {
    if (!options.smtp) await smtp.close();
    if (!options.dns) await dns.close();
    throw err;
  });
  for (const name of ['tracking', 'reports', ...(options.plugins ?? [])]) {
    if (!tk.kernel.isLoaded(name)) {
      const reason = tk.kernel.plugins.find((p) => p.name === name)?.reason;
      await tk.close();
      throw new Error(`the ${name} plugin did not load, so report blocks have no data: ${reason}`);
    }
  }
  const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
  const admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 'reports tests')).password);
  return {
    tk,
    clock,
    smtp,
    dns,
    admin,
    get: async (path) => admin.get(`${tk.api}${path}`, { query: { svc_nonce: await tk.nonce(admin) } }),
    action: (action, body) => admin.post(`${tk.api}/do_action/report/${action}`, { json: body }),
    async close() {
      await tk.close();
      if (!options.smtp) await smtp.close();
      if (!options.dns) await dns.close();
    },
  };
}
