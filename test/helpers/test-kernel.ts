import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Clock, ManualClock } from '../../core/clock';
import { Kernel } from '../../core/kernel';
import type { HttpTimeouts } from '../../core/http/timeouts';
import { createMemoryLogger } from '../../core/logger';
import type { DomainResolver } from '../../core/mail/dns-check';
import type { PluginManifest } from '../../core/plugins/manifest';
import { HttpClient } from './http-client';
import { type TestDatabase, createTestDatabase } from './test-db';

export interface TestKernelOptions {
  /** Built-in plugins to load (SVC_PLUGINS); none by default. */
  plugins?: string[];
  /** Manifests loaded inline, e.g. a deliberately broken plugin. */
  inline?: PluginManifest[];
  env?: Record<string, string>;
  clock?: Clock;
  resolver?: DomainResolver;
  /** Reuse a database (a second app node); a fresh one is made otherwise. */
  database?: TestDatabase;
  /** Start the scheduler's timers (off by default: tests drive jobs directly). */
  scheduler?: boolean;
  /** Connection timeouts other than the documented ones. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** `SVC_BASE_URL` for the free port the kernel gets; `http://127.0.0.1:<port>` by default. */
  baseUrl?: (port: number) => string;
}

export interface TestKernel {
  kernel: Kernel;
  /** `{base_url}` of the running server. */
  url: string;
  /** `{api_base}`. */
  api: string;
  clock: Clock;
  database: TestDatabase;
  dataDir: string;
  logs: Array<Record<string, unknown>>;
  admin: { login: string; password: string };
  /** A fresh cookie-keeping client. */
  client(): HttpClient;
  /** A client signed in through the login form. */
  signedIn(login?: string, password?: string): Promise<HttpClient>;
  /** A REST nonce for a signed-in client. */
  nonce(client: HttpClient): Promise<string>;
  close(): Promise<void>;
}

/** Every built-in plugin, as the business license loads them. */
export const ALL_PLUGINS = ['tracking', 'sources', 'reports', 'story', 'sales', 'abilities', 'woocommerce', 'stripe'];

export const ADMIN = { login: 'admin', password: 'correct horse battery' };

/** A server bound to a port the system chose, and that port; the kernel takes the server over, so the port is never free for another process meanwhile. */
export async function reservePort(): Promise<{ server: net.Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as net.AddressInfo).port }));
  });
}

/** A port free a moment ago, for a process started elsewhere (another OS process binds it itself). */
export async function freePort(): Promise<number> {
  const { server, port } = await reservePort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Boots a real kernel on a real database and serves it on a free port.
 * Only the outside world is swapped: clock, DNS resolver, SMTP server.
 */
export async function createTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const database = options.database ?? (await createTestDatabase());
  const { server: reserved, port } = await reservePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-data-'));
  const clock = options.clock ?? new ManualClock();
  const { logger, entries } = createMemoryLogger('debug');
  const env: NodeJS.ProcessEnv = {
    PORT: String(port),
    SVC_BASE_URL: options.baseUrl ? options.baseUrl(port) : `http://127.0.0.1:${port}`,
    SVC_DATABASE_URL: database.url,
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_USER: ADMIN.login,
    SVC_ADMIN_PASSWORD: ADMIN.password,
    ...options.env,
  };
  const inline = options.inline ?? [];
  env.SVC_PLUGINS ??= [...(options.plugins ?? []), ...inline.map((p) => p.name)].join(',') || 'none';
  const kernel = await Kernel.boot({
    env,
    logger,
    clock,
    resolver: options.resolver,
    plugins: inline,
    announce: () => undefined,
    httpTimeouts: options.httpTimeouts,
  }).catch((err: unknown) => {
    reserved.close();
    throw err;
  });
  if (!options.scheduler) kernel.scheduler.start = () => undefined;
  const url = await kernel.listen(reserved);
  const api = `${url}${kernel.config.restPrefix}/svc/v1`;
  const tk: TestKernel = {
    kernel,
    url,
    api,
    clock,
    database,
    dataDir,
    logs: entries,
    admin: ADMIN,
    client: () => new HttpClient(url),
    async signedIn(login = ADMIN.login, password = ADMIN.password) {
      const client = new HttpClient(url);
      const res = await client.post('/svc-admin/login', { form: { log: login, pwd: password } });
      if (res.status !== 302) throw new Error(`sign-in as ${login} failed with ${res.status}`);
      return client;
    },
    async nonce(client) {
      const res = await client.get<{ nonce: string }>(`${api}/nonce`);
      return res.body.nonce;
    },
    async close() {
      await kernel.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!options.database) await database.drop();
    },
  };
  return tk;
}
