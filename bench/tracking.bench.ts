import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import autocannon from 'autocannon';
import express from 'express';
import type { Bench } from './run';
import { type BenchDialect, benchDialects, startBenchKernel } from './support';

/**
 * Tracking throughput: a mix of new page views and heartbeats from thousands
 * of visitors at concurrency 50 against the REST endpoint and the beacon
 * endpoint, on SQLite and MariaDB, beside a no-op express POST route. The
 * server runs in a child process (this file with `--serve`), so the load
 * generator does not share its event loop; afterwards the child counts the
 * stored rows, which must equal what the endpoint accepted.
 */

const CONNECTIONS = 50;
const SECONDS = Number(process.env.SVC_BENCH_SECONDS || 10);
const VISITORS = 5_000;
const HEARTBEAT_SHARE = 0.4;
const PAGES = ['/', '/pricing/', '/blog/', '/blog/first-post/', '/blog/second-post/', '/docs/', '/docs/install/', '/contact/', '/shop/', '/shop/cart/'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
];
/**
 * Node flags of both servers: the heap limit `npm start` sets by default
 * (SVC_MAX_HEAP_MB). SVC_BENCH_NODE_ARGS replaces them (e.g. with --cpu-prof
 * for diagnosis).
 */
const SERVER_NODE_ARGS = process.env.SVC_BENCH_NODE_ARGS ?? '--max-old-space-size=256';
/** SVC_BENCH_RUNS narrows the runs, e.g. `mysql:rest,sqlite:beacon`. */
const ONLY = (process.env.SVC_BENCH_RUNS ?? '').split(',').filter(Boolean);
const REFERRERS = ['', '', '', 'https://www.google.com/', 'https://news.ycombinator.com/', 'https://duckduckgo.com/'];

interface Visitor {
  uid: string;
  ip: string;
  agent: string;
  /** URL of the last accepted page view; heartbeats go there. */
  url: string | null;
  busy: boolean;
}

interface Load {
  pageviews: number;
  heartbeats: number;
  heartbeatSeconds: number;
  errors: number;
}

type Transport = 'rest' | 'beacon';

function visitors(): Visitor[] {
  return Array.from({ length: VISITORS }, (_, i) => ({
    uid: `v${i.toString(36).padStart(6, '0')}`,
    ip: `${20 + (i % 180)}.${(i * 7) % 250}.${(i * 13) % 250}.${1 + (i % 250)}`,
    agent: AGENTS[i % AGENTS.length]!,
    url: null,
    busy: false,
  }));
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

/** Drives one endpoint for SECONDS and counts what it accepted. */
async function drive(url: string, transport: Transport): Promise<{ load: Load; result: autocannon.Result }> {
  const people = visitors();
  const load: Load = { pageviews: 0, heartbeats: 0, heartbeatSeconds: 0, errors: 0 };
  interface Context {
    visitor?: Visitor;
    kind?: 'pageview' | 'heartbeat';
    url?: string;
    seconds?: number;
  }
  const setupRequest = (req: autocannon.Request, context: object): autocannon.Request => {
    const c = context as Context;
    let visitor = pick(people);
    for (let tries = 0; visitor.busy && tries < 20; tries++) visitor = pick(people);
    const heartbeat = visitor.url !== null && Math.random() < HEARTBEAT_SHARE;
    const pageUrl = heartbeat ? visitor.url! : `https://site.example${pick(PAGES)}`;
    const seconds = heartbeat ? 5 + Math.floor(Math.random() * 20) : 0;
    const payload = heartbeat
      ? { url: pageUrl, uid: visitor.uid, fingerprint: false, user_agent: '', time_on_page: seconds }
      : { url: pageUrl, uid: visitor.uid, fingerprint: false, user_agent: visitor.agent, referrer_url: pick(REFERRERS), time_on_page: 0, completed_goals: [], page_id: 0, page_type: 'page' };
    visitor.busy = true;
    Object.assign(c, { visitor, kind: heartbeat ? 'heartbeat' : 'pageview', url: pageUrl, seconds });
    const body = JSON.stringify(payload);
    return {
      ...req,
      method: 'POST',
      body: transport === 'rest' ? JSON.stringify(body) : body,
      headers: { 'content-type': transport === 'rest' ? 'application/json' : 'text/plain;charset=UTF-8', 'x-forwarded-for': visitor.ip, 'user-agent': visitor.agent },
    };
  };
  const onResponse = (status: number, _body: string, context: object) => {
    const c = context as Context;
    if (!c.visitor) return;
    c.visitor.busy = false;
    if (status !== 200) {
      load.errors++;
      return;
    }
    if (c.kind === 'pageview') {
      load.pageviews++;
      c.visitor.url = c.url!;
    } else {
      load.heartbeats++;
      load.heartbeatSeconds += c.seconds!;
    }
  };
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest, onResponse }],
  });
  return { load, result };
}

/** Starts this file as a server child process: a kernel with tracking, or a no-op express route. */
function serve(mode: BenchDialect | 'noop'): Promise<{ child: ChildProcess; urls: Record<string, string> }> {
  const execArgv = SERVER_NODE_ARGS.split(' ').filter(Boolean);
  const child = fork(__filename, ['--serve', mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, urls: m as Record<string, string> }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, question: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(question);
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('stop');
  await exited;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function benchNoop(log: (line: string) => void): Promise<number> {
  const { child, urls } = await serve('noop');
  const { result } = await drive(urls.noop!, 'rest');
  const { rss } = await ask<{ rss: number }>(child, 'stored');
  await stop(child);
  const rate = result.requests.total / SECONDS;
  log(`no-op express 5 POST route: ${fmt(rate)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, peak RSS ${fmt(rss / 1024 / 1024)} MB`);
  return rate;
}

async function benchTracking(dialect: BenchDialect, noopRate: number, log: (line: string) => void): Promise<void> {
  for (const transport of ['rest', 'beacon'] as const) {
    if (ONLY.length > 0 && !ONLY.includes(`${dialect}:${transport}`)) continue;
    const { child, urls } = await serve(dialect);
    const { load, result } = await drive(urls[transport]!, transport);
    const stored = await ask<{ pageviews: number; seconds: number; rss: number; cpuMs: number }>(child, 'stored');
    await stop(child);
    const recorded = (load.pageviews + load.heartbeats) / SECONDS;
    log(
      `${dialect} ${transport}: ${fmt(recorded)} recorded hits/s (${fmt(load.pageviews)} page views, ${fmt(load.heartbeats)} heartbeats, ${load.errors} errors), ` +
        `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, peak RSS ${fmt(stored.rss / 1024 / 1024)} MB, ` +
        `server CPU ${fmt((stored.cpuMs * 1000) / Math.max(1, load.pageviews + load.heartbeats))} µs per hit, ` +
        `stored ${fmt(stored.pageviews)} of ${fmt(load.pageviews)} accepted page views and ${fmt(stored.seconds)} of ${fmt(load.heartbeatSeconds)} s on page ` +
        `(missing: ${fmt(Math.max(0, load.pageviews - stored.pageviews))} page views, ${fmt(Math.max(0, load.heartbeatSeconds - stored.seconds))} s; ` +
        `more stored than accepted are hits still answering when the run stopped), ` +
        `${(recorded / noopRate).toFixed(2)}× the no-op route`,
    );
  }
}

/**
 * The pipeline object alone, without HTTP: 50 concurrent callers of the
 * tracking service with the same visitor mix, in the server process.
 */
async function benchPipeline(dialect: BenchDialect, log: (line: string) => void): Promise<void> {
  const { child } = await serve(dialect);
  const r = await ask<{ hits: number; ms: number; cpuMs: number; pageviews: number; stored: number }>(child, 'pipeline');
  await stop(child);
  log(
    `${dialect} pipeline without HTTP: ${fmt((r.hits / r.ms) * 1000)} hits/s, server CPU ${fmt((r.cpuMs * 1000) / r.hits)} µs per hit, ` +
      `stored ${fmt(r.stored)} of ${fmt(r.pageviews)} page views`,
  );
}

const bench: Bench = {
  name: 'tracking',
  async run(log) {
    log(`machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other processes share the cores)`);
    log(`${CONNECTIONS} connections, ${SECONDS} s per run, ${fmt(VISITORS)} visitors, ${HEARTBEAT_SHARE * 100}% heartbeats, servers run with node ${SERVER_NODE_ARGS}`);
    const noopRate = await benchNoop(log);
    for (const dialect of benchDialects()) {
      if (ONLY.length === 0 || ONLY.includes(`${dialect}:pipeline`)) await benchPipeline(dialect, log);
      await benchTracking(dialect, noopRate, log);
    }
  },
};
export default bench;

/** Calls the tracking service directly for SECONDS (see benchPipeline). */
async function drivePipeline(k: Awaited<ReturnType<typeof startBenchKernel>>) {
  const tracking = k.kernel.services.get('tracking')!;
  const people = visitors();
  const principal = { user: null, method: 'anonymous' as const, sessionId: null };
  let hits = 0;
  let pageviews = 0;
  const started = Date.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() - started < SECONDS * 1000) {
        let visitor = pick(people);
        while (visitor.busy) visitor = pick(people);
        visitor.busy = true;
        const heartbeat = visitor.url !== null && Math.random() < HEARTBEAT_SHARE;
        const url = heartbeat ? visitor.url! : `https://site.example${pick(PAGES)}`;
        const payload = heartbeat
          ? { url, uid: visitor.uid, fingerprint: false, user_agent: '', time_on_page: 5 }
          : { url, uid: visitor.uid, fingerprint: false, user_agent: visitor.agent, referrer_url: pick(REFERRERS), time_on_page: 0, page_id: 0, page_type: 'page' };
        const result = await tracking.track(payload, { headers: { 'user-agent': visitor.agent, 'x-forwarded-for': visitor.ip }, remoteAddress: '127.0.0.1', principal });
        visitor.busy = false;
        hits++;
        if (!heartbeat && result.recorded) {
          pageviews++;
          visitor.url = url;
        }
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const db = k.kernel.db;
  const [row] = await db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${db.quote(db.table('statistics'))}`);
  return { hits, ms: Date.now() - started, cpuMs: (used.user + used.system) / 1000, pageviews, stored: Number(row?.n ?? 0) };
}

async function serveMain(mode: BenchDialect | 'noop'): Promise<void> {
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  if (mode === 'noop') {
    const app = express();
    app.post('/noop', express.json({ strict: false, limit: '64kb' }), (_req, res) => {
      res.json({ success: true });
    });
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      process.send!({ noop: `http://127.0.0.1:${port}/noop` });
    });
    process.on('message', (m) => {
      if (m === 'stored') {
        process.send!({ rss: peakRss });
        return;
      }
      clearInterval(sampler);
      server.close(() => process.exit(0));
    });
    return;
  }
  const k = await startBenchKernel(mode, { SVC_PLUGINS: 'tracking' });
  const cpuStart = process.cpuUsage();
  process.send!({ rest: `${k.api}/track`, beacon: `${k.url}/svc/endpoint` });
  process.on('message', async (m) => {
    if (m === 'pipeline') {
      process.send!(await drivePipeline(k));
    } else if (m === 'stored') {
      const db = k.kernel.db;
      const [row] = await db.select<{ n: number; s: number }>(
        `SELECT COUNT(*) AS n, COALESCE(SUM(time_on_page), 0) AS s FROM ${db.quote(db.table('statistics'))}`,
      );
      const cpu = process.cpuUsage(cpuStart);
      process.send!({ pageviews: Number(row?.n ?? 0), seconds: Number(row?.s ?? 0), rss: peakRss, cpuMs: (cpu.user + cpu.system) / 1000 });
    } else {
      clearInterval(sampler);
      await k.stop();
      process.exit(0);
    }
  });
}

if (require.main === module && process.argv[2] === '--serve') {
  serveMain(process.argv[3] as BenchDialect | 'noop').catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
