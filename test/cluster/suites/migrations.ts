import { SVC_BIN, startScript } from '../../helpers/dist';
import { within } from '../../helpers/wait';
import type { GaleraCluster } from '../galera-cluster';

/** Two app nodes migrating one fresh database at once, through two different cluster nodes. */
export function migrationTests(cluster: () => GaleraCluster): void {
  it('apply each migration exactly once when two app nodes start together on two cluster nodes', async () => {
    const c = cluster();
    const name = await c.createDatabase();
    const migrate = (node: 1 | 2) =>
      startScript(SVC_BIN, ['migrate'], { env: { SVC_DATABASE_URL: c.url(name, node), SVC_LICENSE: 'business' }, timeout: 120_000 }).done;
    const runs = await within(Promise.all([migrate(1), migrate(2)]), 120_000, 'both migrations');
    for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });

    const applied = runs.flatMap((run) => run.stdout.split('\n').filter((l) => l.startsWith('applied ')).map((l) => l.slice(8)));
    const recorded = (await c.query<{ name: string }>(2, `SELECT name FROM \`${name}\`.svc_migrations`)).map((r) => r.name);
    expect(applied.length).toBeGreaterThan(10);
    expect([...applied].sort()).toEqual([...new Set(applied)].sort());
    expect([...recorded].sort()).toEqual([...applied].sort());
    expect(await c.query(3, `SELECT name FROM \`${name}\`.svc_locks`)).toEqual([]);
  }, 150_000);
}
