import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Bench } from './run';
import { type BenchDialect, benchDialects } from './databases';
import { drive } from './tracking-load';
import { CONNECTIONS, HEARTBEAT_SHARE, type Load, SITES, type Transport, VISITORS } from './traffic';
import type { Mark, PipelineRun, ServerKind, Stored } from './tracking-server';

/**
 * Tracking throughput and cost: the traffic model of tracking-load.ts against
 * svc's REST and beacon endpoints, on SQLite and MariaDB, beside the bound —
 * a bare node:http server storing each hit with one prepared INSERT. Servers
 * run in their own process; the figures are hits answered 200 per second,
 * latency, the server's CPU time per hit over the run, its peak RSS, and the
 * hits lost (answered 200 but not stored, which must be 0). A last REST run
 * spreads the same visitors over 50 sites (told apart by host) beside the
 * run on one site.
 *
 * CPU per hit is the figure to compare between runs; it still moves with the
 * other load of a shared machine (and falls as hits per second rise), so
 * SVC_BENCH_ROUNDS repeats every run and closes with the medians.
 */

const SECONDS = Number(process.env.SVC_BENCH_SECONDS || 10);
/** Rounds of every run, one after another; with more than one the medians close the output (a busy machine moves single runs by 10-20 %). */
const ROUNDS = Math.max(1, Number(process.env.SVC_BENCH_ROUNDS || 1));
/** `scripts/server-flags.js`, from dist/bench. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverNodeFlags } = require(path.join(__dirname, '..', '..', 'scripts', 'server-flags.js')) as { serverNodeFlags(env: NodeJS.ProcessEnv): string[] };
/**
 * Node flags of the servers: those `npm start` sets by default. SVC_BENCH_NODE_ARGS
 * replaces them (e.g. with --cpu-prof for diagnosis).
 */
const SERVER_NODE_ARGS = process.env.SVC_BENCH_NODE_ARGS ?? serverNodeFlags({}).join(' ');
/** SVC_BENCH_RUNS narrows the runs, e.g. `mysql:rest,sqlite:bound,mysql:sites`; `<dialect>:pipeline` adds the pipeline without HTTP. */
const ONLY = (process.env.SVC_BENCH_RUNS ?? '').split(',').filter(Boolean);
const wanted = (dialect: BenchDialect, run: string) => (ONLY.length === 0 ? run !== 'pipeline' : ONLY.includes(`${dialect}:${run}`));

interface Server {
  child: ChildProcess;
  urls: Record<Transport, string>;
  ask<T>(question: string): Promise<T>;
  stop(): Promise<void>;
}

function serve(kind: ServerKind, dialect: BenchDialect, sites = 1): Promise<Server> {
  const child = fork(path.join(__dirname, 'tracking-server.js'), [kind, dialect, String(sites)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: SERVER_NODE_ARGS.split(' ').filter(Boolean),
  });
  const ask = <T>(question: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(question);
    });
  return new Promise((resolve, reject) => {
    const failed = (code: number | null) => reject(new Error(`bench server exited with ${code}`));
    child.once('exit', failed);
    child.once('message', (urls) => {
      child.off('exit', failed);
      resolve({
        child,
        urls: urls as Record<Transport, string>,
        ask,
        async stop() {
          const exited = new Promise((done) => child.once('exit', done));
          child.send('stop');
          await exited;
        },
      });
    });
  });
}

interface Figures {
  hitsPerSecond: number;
  cpuPerHit: number;
  peakRssMb: number;
  /** Page views (svc) or hits (the bound) answered 200 and not stored. */
  lost: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () => os.loadavg()[0]!.toFixed(1);

/**
 * One timed run against one endpoint; prints its line and gives its figures.
 * `versus` is the run to compare with: the bound, or svc on one site for the run over `sites` sites.
 */
async function run(kind: ServerKind, dialect: BenchDialect, transport: Transport, versus: Figures | null, log: (line: string) => void, sites = 1): Promise<Figures> {
  const server = await serve(kind, dialect, sites);
  const loadBefore = load();
  const before = await server.ask<Mark>('mark');
  const { load: answered, result } = await drive(server.urls[transport], transport, SECONDS, sites);
  const after = await server.ask<Mark>('mark');
  const stored = await server.ask<Stored>('stored');
  await server.stop();
  const hits = answered.pageviews + answered.heartbeats;
  const lostHits = kind === 'bound' ? Math.max(0, hits - stored.rows) : Math.max(0, answered.pageviews - stored.rows);
  const figures = { hitsPerSecond: hits / SECONDS, cpuPerHit: (after.cpuUs - before.cpuUs) / Math.max(1, hits), peakRssMb: after.peakRss / 1024 / 1024, lost: lostHits };
  const systemShare = Math.round((100 * (after.systemUs - before.systemUs)) / Math.max(1, after.cpuUs - before.cpuUs));
  const name = kind === 'bound' ? `${dialect} bound (node:http, one prepared INSERT)` : `${dialect} svc ${transport}${sites > 1 ? ` over ${sites} sites` : ''}`;
  const against = sites > 1 ? 'one site' : 'the bound';
  log(
    `${name}: ${fmt(figures.hitsPerSecond)} hits/s (${Math.round((100 * answered.heartbeats) / Math.max(1, hits))} % heartbeats, ${answered.errors} errors), ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, CPU ${fmt(figures.cpuPerHit)} µs per hit (${systemShare} % in the kernel), peak RSS ${fmt(after.peakRss / 1024 / 1024)} MB, ` +
      `${lost(kind, answered, stored)}, load ${loadBefore}→${load()}` +
      (versus ? `; ${(figures.hitsPerSecond / versus.hitsPerSecond).toFixed(2)}× ${against}'s hits/s, ${(figures.cpuPerHit / versus.cpuPerHit).toFixed(2)}× its CPU per hit` : ''),
  );
  return figures;
}

/**
 * Hits answered 200 but not stored. The bound stores a row per hit; svc a row
 * per page view, heartbeats adding their seconds to it. Hits still under way
 * when the load stopped are stored without having been counted as answered.
 */
function lost(kind: ServerKind, answered: Load, stored: Stored): string {
  if (kind === 'bound') {
    const hits = answered.pageviews + answered.heartbeats;
    return `lost ${fmt(Math.max(0, hits - stored.rows))} (stored ${fmt(stored.rows)} rows of ${fmt(hits)} answered hits)`;
  }
  const pageviews = Math.max(0, answered.pageviews - stored.rows);
  const seconds = Math.max(0, answered.heartbeatSeconds - stored.seconds);
  return (
    `lost ${fmt(pageviews)} page views and ${fmt(seconds)} s of heartbeats ` +
    `(stored ${fmt(stored.rows)} of ${fmt(answered.pageviews)} answered page views, ${fmt(stored.seconds)} of ${fmt(answered.heartbeatSeconds)} s on page)`
  );
}

async function pipeline(dialect: BenchDialect, log: (line: string) => void): Promise<void> {
  const server = await serve('svc', dialect);
  const r = await server.ask<PipelineRun>(`pipeline ${SECONDS}`);
  await server.stop();
  log(
    `${dialect} pipeline without HTTP: ${fmt((r.hits / r.ms) * 1000)} hits/s, CPU ${fmt(r.cpuUs / r.hits)} µs per hit, ` +
      `stored ${fmt(r.stored)} of ${fmt(r.pageviews)} page views`,
  );
}

const bench: Bench = {
  name: 'tracking',
  async run(log) {
    log(`machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores (other processes share them)`);
    log(
      `${CONNECTIONS} connections, ${SECONDS} s per run, ${fmt(VISITORS)} visitors in cookie mode, ${HEARTBEAT_SHARE * 100} % heartbeats once pages are open; ` +
        `servers run with node ${SERVER_NODE_ARGS}`,
    );
    const rounds = new Map<string, Figures[]>();
    const keep = (name: string, figures: Figures) => {
      rounds.set(name, [...(rounds.get(name) ?? []), figures]);
      return figures;
    };
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) log(`round ${round} of ${ROUNDS}`);
      for (const dialect of benchDialects()) {
        const bound = wanted(dialect, 'bound') ? keep(`${dialect} bound`, await run('bound', dialect, 'rest', null, log)) : null;
        const oneSite = wanted(dialect, 'rest') || wanted(dialect, 'sites') ? keep(`${dialect} svc rest`, await run('svc', dialect, 'rest', bound, log)) : null;
        if (wanted(dialect, 'beacon')) keep(`${dialect} svc beacon`, await run('svc', dialect, 'beacon', bound, log));
        if (wanted(dialect, 'sites')) keep(`${dialect} svc rest over ${SITES} sites`, await run('svc', dialect, 'rest', oneSite, log, SITES));
        if (wanted(dialect, 'pipeline')) await pipeline(dialect, log);
      }
    }
    if (ROUNDS > 1) for (const line of medians(rounds)) log(line);
  },
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One line per run kind: median hits/s and CPU per hit over the rounds, the largest peak RSS, the hits lost in all; svc against its dialect's bound. */
function medians(rounds: Map<string, Figures[]>): string[] {
  return [...rounds].map(([name, runs]) => {
    const cpu = median(runs.map((r) => r.cpuPerHit));
    const bound = rounds.get(`${name.split(' ')[0]} bound`);
    const versus = bound && !name.endsWith('bound') ? `, ${(cpu / median(bound.map((r) => r.cpuPerHit))).toFixed(2)}× the bound's` : '';
    return (
      `median of ${runs.length}: ${name}: ${fmt(median(runs.map((r) => r.hitsPerSecond)))} hits/s, CPU ${fmt(cpu)} µs per hit${versus}, ` +
      `peak RSS at most ${fmt(Math.max(...runs.map((r) => r.peakRssMb)))} MB, lost ${fmt(runs.reduce((n, r) => n + r.lost, 0))}`
    );
  });
}
export default bench;
