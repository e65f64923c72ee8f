import { type Database, connectDatabase } from '../../../core/db/database';
import { recordedRuns, startCronNode } from '../../helpers/cron-node';
import { ADMIN, createTestKernel } from '../../helpers/test-kernel';
import type { GaleraCluster } from '../galera-cluster';
import { clusterDatabase } from './cluster-database';

const ROUNDS = 15;
const EVENTS = 40;

/** Writes from two cluster nodes that conflict at commit, and scheduler claims from two app processes. */
export function transactionTests(cluster: () => GaleraCluster): void {
  it('run a transaction that loses a certification conflict again, so every increment from two nodes counts once', async () => {
    const database = await clusterDatabase(cluster(), 1);
    const nodes: Database[] = [];
    try {
      nodes.push(await connectDatabase(cluster().url(database.name, 1), ''), await connectDatabase(cluster().url(database.name, 2), ''));
      await nodes[0]!.execute('CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)');
      await nodes[0]!.execute('INSERT INTO counters (id, n) VALUES (1, 0)');
      let runs = 0;
      const increment = (db: Database) =>
        db.transaction(async (t) => {
          runs++;
          const [row] = await db.select<{ n: number }>('SELECT n FROM counters WHERE id = 1 FOR UPDATE', [], t);
          await db.execute('UPDATE counters SET n = ? WHERE id = 1', [Number(row!.n) + 1], t);
        });
      await Promise.all(nodes.flatMap((db) => Array.from({ length: ROUNDS }, () => increment(db))));
      expect(await nodes[1]!.select('SELECT n FROM counters WHERE id = 1')).toEqual([{ n: 2 * ROUNDS }]);
      expect(runs).toBeGreaterThanOrEqual(2 * ROUNDS);
    } finally {
      for (const db of nodes) await db.close();
      await database.drop();
    }
  }, 60_000);

  it('let two app processes on two cluster nodes run each due single event exactly once', async () => {
    const database = await clusterDatabase(cluster(), 3);
    const tk = await createTestKernel({ database });
    try {
      const now = Math.floor(Date.now() / 1000);
      for (let report = 1; report <= EVENTS; report++) {
        await tk.kernel.scheduler.scheduleSingle(now - 10, 'svc_send_email_batch', [report, `queue-${report}`, 1]);
      }
      const env = (node: 1 | 2) => ({
        ...process.env,
        SVC_DATABASE_URL: cluster().url(database.name, node),
        SVC_DATA_DIR: tk.dataDir,
        SVC_PLUGINS: 'recorder',
        SVC_ADMIN_USER: ADMIN.login,
        SVC_ADMIN_PASSWORD: ADMIN.password,
      });
      const nodes = await Promise.all([startCronNode(env(1)), startCronNode(env(2))]);
      for (const node of nodes) node.go();
      const ran = await Promise.all(nodes.map((n) => n.done));

      expect(ran[0]! + ran[1]!).toBe(EVENTS);
      const { perEvent } = await recordedRuns(tk.kernel.db);
      expect(perEvent.size).toBe(EVENTS);
      expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
      expect(await tk.kernel.scheduler.pending()).toEqual([]);
    } finally {
      await tk.close();
      await database.drop();
    }
  }, 90_000);
}
