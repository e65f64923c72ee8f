import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kernel } from '../core/kernel';
import { createLogger } from '../core/logger';
import type { PluginManifest } from '../core/plugins/manifest';
import { type BenchDialect, freshDatabase } from './databases';

export { type BenchDialect, benchDialects } from './databases';

export interface BenchKernel {
  kernel: Kernel;
  url: string;
  api: string;
  stop(): Promise<void>;
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
