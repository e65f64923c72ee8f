import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Sequelize } from 'sequelize';
import { Kernel } from '../core/kernel';
import { createLogger } from '../core/logger';
import type { PluginManifest } from '../core/plugins/manifest';

export type BenchDialect = 'sqlite' | 'mysql';

export interface BenchKernel {
  kernel: Kernel;
  url: string;
  api: string;
  stop(): Promise<void>;
}

/** `SVC_BENCH_MYSQL_URL` (or the test URL) enables the MariaDB runs. */
export function benchDialects(): BenchDialect[] {
  return process.env.SVC_BENCH_MYSQL_URL || process.env.SVC_TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];
}

async function freshDatabase(dialect: BenchDialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
    return { url: `sqlite:${path.join(dir, 'svc.sqlite')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const server = (process.env.SVC_BENCH_MYSQL_URL || process.env.SVC_TEST_MYSQL_URL)!;
  const name = `svc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Sequelize(server, { logging: false, dialect: 'mysql' });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.close();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const conn = new Sequelize(server, { logging: false, dialect: 'mysql' });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.close();
    },
  };
}

/** A real kernel on a fresh database, listening on a free port, with logs kept quiet; `plugins` are loaded inline. */
export async function startBenchKernel(dialect: BenchDialect, env: Record<string, string> = {}, plugins: readonly PluginManifest[] = []): Promise<BenchKernel> {
  const database = await freshDatabase(dialect);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-data-'));
  const kernel = await Kernel.boot({
    env: { SVC_DATABASE_URL: database.url, SVC_DATA_DIR: dataDir, SVC_ADMIN_PASSWORD: 'bench-password', ...env },
    logger: createLogger({ level: 'warn' }),
    announce: () => undefined,
    plugins,
  });
  kernel.scheduler.start = () => undefined;
  const url = await kernel.listen(0, '127.0.0.1');
  return {
    kernel,
    url,
    api: `${url}${kernel.config.restPrefix}/svc/v1`,
    async stop() {
      await kernel.stop();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Percentile of already sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
