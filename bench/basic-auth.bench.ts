import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import type { Bench } from './run';
import { type BenchDialect, benchDialects, percentile, startBenchKernel } from './support';

/**
 * `npm run bench -- basic-auth`: tracking latency while wrong HTTP Basic
 * requests arrive. An editor holds 20 application passwords (the most one
 * person may); 20 requests a second guess at them, each from another
 * address (behind a trusted proxy), so that none is stopped by the per-address
 * budget and each costs the check its full work. Tracking hits go one at a
 * time beside them; their p50 is compared with the p50 of the same hits
 * without the guesses, in alternating phases. The target: under 2× the idle p50.
 */

const SECONDS = Number(process.env.SVC_BENCH_SECONDS || 5);
/** Quiet and attacked phases of SECONDS each, alternating. */
const ROUNDS = 3;
const GUESSES_PER_SECOND = 20;
const APP_PASSWORDS = 20;
const AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

interface Urls {
  track: string;
  guess: string;
}

function serve(dialect: BenchDialect): Promise<{ child: ChildProcess; urls: Urls }> {
  const child = fork(__filename, ['--serve', dialect], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, urls: m as Urls }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('stop');
  await exited;
}

/** Sends tracking hits one after another for SECONDS; their latencies in ms. */
async function trackFor(url: string, tag: string): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  for (let i = 0; Date.now() < until; i++) {
    const body = JSON.stringify(JSON.stringify({ url: `https://site.example/page-${i % 20}/`, uid: `${tag}${i}`, fingerprint: false, user_agent: AGENT, time_on_page: 0, page_id: 0, page_type: 'page' }));
    const started = process.hrtime.bigint();
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.${i % 250}.${1 + (i % 200)}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`a tracking hit answered ${res.status}`);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return latencies;
}

/** Fires GUESSES_PER_SECOND wrong Basic requests a second until `done` settles; counts the answers by status. */
function guess(url: string, done: Promise<unknown>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  const pending: Array<Promise<void>> = [];
  let n = 0;
  const timer = setInterval(() => {
    n++;
    const auth = Buffer.from(`ed:${'x'.repeat(8)}${String(n).padStart(24, 'g')}`).toString('base64');
    pending.push(
      fetch(url, { headers: { authorization: `Basic ${auth}`, 'x-forwarded-for': `198.18.${(n >> 8) & 255}.${n & 255}` } }).then(
        async (res) => {
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        },
        () => {
          statuses[0] = (statuses[0] ?? 0) + 1;
        },
      ),
    );
  }, 1000 / GUESSES_PER_SECOND);
  return done.then(async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return statuses;
  });
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

const bench: Bench = {
  name: 'basic-auth',
  async run(log) {
    log(`machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other processes share the cores)`);
    log(`${ROUNDS} rounds of ${SECONDS} s quiet, then ${SECONDS} s with ${GUESSES_PER_SECOND} wrong Basic requests/s from distinct addresses against a person with ${APP_PASSWORDS} application passwords`);
    for (const dialect of benchDialects()) {
      const { child, urls } = await serve(dialect);
      await trackFor(urls.track, 'warm');
      // Quiet and attacked phases take turns, so a change in the machine's other load hits both alike.
      const idleLatencies: number[] = [];
      const attackLatencies: number[] = [];
      const statuses: Record<number, number> = {};
      for (let round = 0; round < ROUNDS; round++) {
        idleLatencies.push(...(await trackFor(urls.track, `idle${round}-`)));
        const attacked = trackFor(urls.track, `attack${round}-`);
        for (const [status, count] of Object.entries(await guess(urls.guess, attacked))) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
        attackLatencies.push(...(await attacked));
      }
      const idle = percentile(idleLatencies.sort((a, b) => a - b), 50);
      const underAttack = percentile(attackLatencies.sort((a, b) => a - b), 50);
      await stop(child);
      const answers = Object.entries(statuses).map(([status, count]) => `${count}× ${status === '0' ? 'no answer' : status}`).join(', ');
      log(`${dialect}: tracking p50 idle ${ms(idle)}, under attack ${ms(underAttack)}, ratio ${(underAttack / idle).toFixed(2)}x (target < 2x); the guesses got ${answers}`);
    }
  },
};
export default bench;

async function serveMain(dialect: BenchDialect): Promise<void> {
  const k = await startBenchKernel(dialect, { SVC_PLUGINS: 'tracking', SVC_TRUST_PROXY: 'loopback' });
  const ed = await k.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  for (let i = 0; i < APP_PASSWORDS; i++) await k.kernel.appPasswords.create(ed, `key ${i}`);
  process.send!({ track: `${k.api}/track`, guess: `${k.api}/users/me/application-passwords` } satisfies Urls);
  process.on('message', async () => {
    await k.stop();
    process.exit(0);
  });
}

if (require.main === module && process.argv[2] === '--serve') {
  serveMain(process.argv[3] as BenchDialect).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
