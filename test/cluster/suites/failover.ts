import { within } from '../../helpers/wait';
import { type AppNode, startAppNodes } from '../app-node';
import type { GaleraCluster } from '../galera-cluster';
import { clusterDatabase } from './cluster-database';

const CONCURRENCY = 8;
const BEFORE_STOP = 120;
const AFTER_STOP = 200;
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';

interface Answer {
  hit: number;
  node: number;
  /** HTTP status, 0 when no answer came. */
  status: number;
  recorded: boolean;
  afterStop: boolean;
}

/** One page view with its own visitor and page, through the REST endpoint; `recorded` when 200 without a drop outcome (debug mode). */
async function hit(node: AppNode, i: number): Promise<Pick<Answer, 'status' | 'recorded'>> {
  const payload = { url: `https://site.example/p/${i}`, uid: `visitor${i}`, fingerprint: false, user_agent: AGENT, referrer_url: '', time_on_page: 0, page_id: 0, page_type: 'page' };
  try {
    const res = await fetch(`${node.url}/wp-json/svc/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': AGENT },
      body: JSON.stringify(JSON.stringify(payload)),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json().catch(() => ({}))) as { success?: boolean; outcome?: string };
    return { status: res.status, recorded: res.status === 200 && body.success === true && body.outcome === undefined };
  } catch {
    return { status: 0, recorded: false };
  }
}

/** Tracking load over two app nodes while a cluster node stops (cleanly, or killed with -9), then rejoins. */
export function failoverTests(cluster: () => GaleraCluster): void {
  it.each([
    ['stops', 'stopNode'],
    ['is killed with kill -9', 'killNode'],
  ] as const)('store every hit answered 200 exactly once while a cluster node %s, fail over, and let the node rejoin', async (_what, leave) => {
    const c = cluster();
    const database = await clusterDatabase(c, 1);
    const env = { SVC_PLUGINS: 'tracking', SVC_DEBUG: '1', SVC_ADMIN_USER: 'admin', SVC_ADMIN_PASSWORD: 'correct horse battery' };
    const nodes = await startAppNodes({ ...env, SVC_DATABASE_URL: c.url(database.name, 1, 2, 3) }, { ...env, SVC_DATABASE_URL: c.url(database.name, 2, 3, 1) });
    const answers: Answer[] = [];
    let stopped = false;
    let done = false;
    try {
      let next = 0;
      let onAnswer = () => undefined as void;
      const answered = (count: number, filter: (a: Answer) => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => answers.filter(filter).length >= count && resolve();
          const previous = onAnswer;
          onAnswer = () => (previous(), check());
          check();
        });
      const load = Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (!done) {
            const i = next++;
            const afterStop = stopped;
            answers.push({ hit: i, node: i % 2, afterStop, ...(await hit(nodes[i % 2]!, i)) });
            onAnswer();
          }
        }),
      );
      await within(answered(BEFORE_STOP, () => true), 60_000, `${BEFORE_STOP} hits before the stop`);
      await c[leave](2);
      stopped = true;
      await within(answered(AFTER_STOP, (a) => a.afterStop && a.recorded), 60_000, `${AFTER_STOP} hits recorded after the stop`);
      done = true;
      await within(load, 30_000, 'the hits in flight');

      const stored = new Map<number, number>();
      const rows = await c.query<{ page_url: string; n: number }>(1, `SELECT page_url, COUNT(*) AS n FROM \`${database.name}\`.svc_statistics GROUP BY page_url`);
      for (const row of rows) stored.set(Number(row.page_url.slice(3)), Number(row.n));
      const recorded = answers.filter((a) => a.recorded);
      expect(recorded.filter((a) => stored.get(a.hit) !== 1)).toEqual([]);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
      expect(answers.filter((a) => a.status === 200 && !a.recorded)).toEqual([]);
      // The node whose server stopped moved to the next one of its list and kept recording.
      const moved = nodes[1]!.logs().find((l) => String(l.msg).startsWith(`database server 127.0.0.1:${c.port(2)} went away`));
      expect(moved?.msg).toBe(`database server 127.0.0.1:${c.port(2)} went away; using 127.0.0.1:${c.port(3)}`);
      expect(recorded.filter((a) => a.afterStop && a.node === 1).length).toBeGreaterThan(AFTER_STOP / 4);
      process.stdout.write(
        `failover (${leave}): ${answers.length} hits, ${recorded.length} recorded, ${answers.length - recorded.length} refused (${answers.filter((a) => a.status === 503).length} with 503)\n`,
      );

      await c.startNode(2);
      stopped = false;
      const [onRejoined] = await c.query<{ n: number }>(2, `SELECT COUNT(*) AS n FROM \`${database.name}\`.svc_statistics`);
      expect(Number(onRejoined!.n)).toBe(stored.size);
    } finally {
      done = true;
      if (stopped) await c.startNode(2);
      await Promise.all(nodes.map((n) => n.stop()));
      await database.drop();
    }
  }, 240_000);
}
