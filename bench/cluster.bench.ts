import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { connectDatabase } from '../core/db/database';
import { Kernel } from '../core/kernel';
import { createLogger } from '../core/logger';
import { type GaleraCluster, galeraMissing, startGaleraCluster } from '../test/cluster/galera-cluster';
import type { Bench } from './run';
import { freshDatabase } from './databases';
import { percentile } from './support';

/**
 * What a Galera cluster costs and gives: tracking throughput and server CPU
 * per hit for one app node on a single MariaDB, and for one and two app
 * nodes on a three-node Galera cluster on this machine (test/cluster/galera.sh),
 * plus the commit latency of a one-row transaction on each. App nodes run
 * as child processes (this file with `--serve`); the load is new page views
 * of distinct visitors over the REST endpoint.
 */

const CONNECTIONS = 32;
const SECONDS = Number(process.env.SVC_BENCH_SECONDS || 10);
const COMMITS = 400;
const AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const PAGES = ['/', '/pricing/', '/blog/', '/docs/', '/contact/', '/shop/'];

interface AppServer {
  child: ChildProcess;
  track: string;
}

function ask<T>(child: ChildProcess, question: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(question);
  });
}

/** Starts an app node (tracking only) on `databaseUrl` in a child process. */
function serve(databaseUrl: string): Promise<AppServer> {
  const child = fork(__filename, ['--serve', databaseUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=256'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, track: (m as { track: string }).track }));
    child.once('exit', (code) => reject(new Error(`bench app node exited with ${code}`)));
  });
}

async function stop(server: AppServer): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('stop');
  await exited;
}

/** Drives every server at once for SECONDS, CONNECTIONS shared among them; answers recorded hits, latencies and server CPU. */
async function drive(servers: AppServer[]): Promise<{ hits: number; p50: number; p99: number; cpuMs: number }> {
  let visitor = 0;
  const before = await Promise.all(servers.map((s) => ask<number>(s.child, 'cpu')));
  const results = await Promise.all(
    servers.map((s) => {
      let ok = 0;
      const run = autocannon({
        url: s.track,
        connections: Math.max(1, Math.floor(CONNECTIONS / servers.length)),
        duration: SECONDS,
        requests: [
          {
            setupRequest: (req) => {
              const n = visitor++;
              const payload = { url: `https://site.example${PAGES[n % PAGES.length]}`, uid: `v${n}`, fingerprint: false, user_agent: AGENT, referrer_url: '', time_on_page: 0, page_id: 0, page_type: 'page' };
              return { ...req, method: 'POST', body: JSON.stringify(JSON.stringify(payload)), headers: { 'content-type': 'application/json', 'user-agent': AGENT } };
            },
            onResponse: (status) => void (status === 200 && ok++),
          },
        ],
      });
      return run.then((result) => ({ result, ok }));
    }),
  );
  const after = await Promise.all(servers.map((s) => ask<number>(s.child, 'cpu')));
  const hits = results.reduce((sum, r) => sum + r.ok, 0);
  const p50 = Math.max(...results.map((r) => r.result.latency.p50));
  const p99 = Math.max(...results.map((r) => r.result.latency.p99));
  return { hits, p50, p99, cpuMs: after.reduce((sum, ms, i) => sum + ms - before[i]!, 0) };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function tracking(label: string, urls: string[], log: (line: string) => void): Promise<void> {
  const servers: AppServer[] = [];
  // One after the other: the first applies the migrations.
  for (const url of urls) servers.push(await serve(url));
  try {
    const { hits, p50, p99, cpuMs } = await drive(servers);
    log(`${label}: ${fmt(hits / SECONDS)} recorded hits/s, p50 ${p50} ms, p99 ${p99} ms, server CPU ${fmt((cpuMs * 1000) / Math.max(1, hits))} µs per hit`);
  } finally {
    await Promise.all(servers.map(stop));
  }
}

/** p50 and p99 in ms of a transaction inserting one row, COMMITS times in a row. */
async function commitLatency(url: string): Promise<{ p50: number; p99: number }> {
  const db = await connectDatabase(url, '');
  try {
    await db.execute('CREATE TABLE bench_commits (id BIGINT AUTO_INCREMENT PRIMARY KEY, n INT NOT NULL)');
    const times: number[] = [];
    for (let i = 0; i < COMMITS; i++) {
      const started = process.hrtime.bigint();
      await db.transaction((t) => db.execute('INSERT INTO bench_commits (n) VALUES (?)', [i], t));
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await db.close();
  }
}

const ms = (n: number) => n.toFixed(2);

const bench: Bench = {
  name: 'cluster',
  async run(log) {
    const missing = galeraMissing();
    if (missing) {
      log(`skipped: ${missing}`);
      return;
    }
    const single = process.env.SVC_BENCH_MYSQL_URL || process.env.SVC_TEST_MYSQL_URL ? await freshDatabase('mysql') : null;
    if (!single) log('no single MariaDB to compare with: set SVC_BENCH_MYSQL_URL or SVC_TEST_MYSQL_URL');
    log(`machine: ${os.cpus().length} cores shared by the cluster, the app nodes and the load; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    log(`${CONNECTIONS} connections, ${SECONDS} s per run, new page views of distinct visitors over REST`);
    let cluster: GaleraCluster | null = null;
    try {
      cluster = await startGaleraCluster();
      const name = await cluster.createDatabase();
      if (single) await tracking('single MariaDB, 1 app node', [single.url], log);
      await tracking('Galera (3 nodes), 1 app node', [cluster.url(name, 1, 2, 3)], log);
      await tracking('Galera (3 nodes), 2 app nodes on nodes 1 and 2', [cluster.url(name, 1, 2, 3), cluster.url(name, 2, 3, 1)], log);
      const onCluster = await commitLatency(cluster.url(name, 1));
      const onSingle = single ? await commitLatency(single.url) : null;
      log(
        `commit latency of a one-row transaction (${COMMITS} in a row): Galera p50 ${ms(onCluster.p50)} ms, p99 ${ms(onCluster.p99)} ms` +
          (onSingle ? `; single MariaDB p50 ${ms(onSingle.p50)} ms, p99 ${ms(onSingle.p99)} ms` : ''),
      );
    } finally {
      await cluster?.stop();
      await single?.drop();
    }
  },
};
export default bench;

/** An app node for the benchmark: the kernel with tracking on `databaseUrl`, serving on a free port. */
async function serveMain(databaseUrl: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-node-'));
  const kernel = await Kernel.boot({
    env: { SVC_DATABASE_URL: databaseUrl, SVC_DATA_DIR: dataDir, SVC_PLUGINS: 'tracking', SVC_ADMIN_PASSWORD: 'bench-password' },
    logger: createLogger({ level: 'warn' }),
    announce: () => undefined,
  });
  kernel.scheduler.start = () => undefined;
  const url = await kernel.listen(0, '127.0.0.1');
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  process.send!({ track: `${url}${kernel.config.restPrefix}/svc/v1/track` });
  process.on('message', async (m) => {
    if (m === 'cpu') {
      process.send!(cpu());
      return;
    }
    await kernel.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

if (require.main === module && process.argv[2] === '--serve') {
  serveMain(process.argv[3]!).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
