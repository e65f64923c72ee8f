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

/** One request a bench times: the period and name it prints under, and its URL. */
export interface TimedRequest {
  period: string;
  name: string;
  url: string;
}

/**
 * Times every request `runs` times after `warmup` uncounted rounds, round-robin
 * (so a busy moment of the machine hits them all alike), prints p50/p95 of each
 * and gives them by `period|name`.
 */
export async function timeRequests(
  requests: readonly TimedRequest[],
  options: { auth: string; runs: number; warmup: number; label: string; log: (line: string) => void },
): Promise<{ p50: Map<string, number>; p95: Map<string, number> }> {
  const { auth, runs, warmup, label, log } = options;
  log(`[${label}] load average before the queries: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
  const times = requests.map(() => [] as number[]);
  for (let i = 0; i < runs + warmup; i++) {
    for (const [at, r] of requests.entries()) {
      const t0 = performance.now();
      const res = await fetch(r.url, { headers: { authorization: auth } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${r.name}: HTTP ${res.status} ${body.slice(0, 200)}`);
      if (i >= warmup) times[at]!.push(performance.now() - t0);
    }
  }
  const width = Math.max(...requests.map((r) => r.name.length)) + 1;
  const p50 = new Map<string, number>();
  const p95 = new Map<string, number>();
  requests.forEach((r, at) => {
    const sorted = times[at]!.sort((a, b) => a - b);
    p50.set(`${r.period}|${r.name}`, percentile(sorted, 50));
    p95.set(`${r.period}|${r.name}`, percentile(sorted, 95));
    log(`[${label}] ${r.period.padEnd(9)} ${r.name.padEnd(width)} p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(sorted, 95).toFixed(1).padStart(7)} ms`);
  });
  return { p50, p95 };
}

/** Prints the worst p95 against `targetMs` and the worst `long`/`short` period p95 ratio against `targetRatio`. */
export function printBounds(p95: ReadonlyMap<string, number>, names: readonly string[], bounds: { short: string; long: string; targetMs: number; targetRatio: number; label: string; log: (line: string) => void }): void {
  const { short, long, targetMs, targetRatio, label, log } = bounds;
  const [worstName, worst] = [...p95.entries()].reduce((a, b) => (b[1] > a[1] ? b : a));
  const ratios = names.map((name) => [name, p95.get(`${long}|${name}`)! / Math.max(1, p95.get(`${short}|${name}`)!)] as const);
  const [ratioName, ratio] = ratios.reduce((a, b) => (b[1] > a[1] ? b : a));
  log(`[${label}] worst p95 ${worst.toFixed(1)} ms (${worstName.replace('|', ' ')}; target < ${targetMs} ms): ${worst < targetMs ? 'met' : 'MISSED'}`);
  log(`[${label}] worst ${long}/${short} p95 ratio ${ratio.toFixed(2)} (${ratioName}; target < ${targetRatio}): ${ratio < targetRatio ? 'met' : 'MISSED'}`);
}
