import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';

/** The repository root, found from this file whether it runs from test/ or compiled under dist/ (the cluster benchmark). */
function repositoryRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const SCRIPT = path.join(repositoryRoot(), 'test', 'cluster', 'galera.sh');
const NODES = [1, 2, 3] as const;
export type NodeNumber = (typeof NODES)[number];

/** Set by CI: without Galera the cluster tests fail instead of being skipped. */
export const clusterRequired = process.env.SVC_REQUIRE_CLUSTER === '1';

/** Why the test cluster cannot run on this machine, or null when it can. */
export function galeraMissing(): string | null {
  const check = spawnSync('bash', [SCRIPT, 'check'], { encoding: 'utf8' });
  return check.status === 0 ? null : check.stderr.trim() || `galera.sh check exited with ${check.status}`;
}

export interface GaleraCluster {
  /** SQL port of each node, by node number. */
  port(node: NodeNumber): number;
  /** `SVC_DATABASE_URL` for `database` listing the given nodes in that order. */
  url(database: string, ...order: NodeNumber[]): string;
  /** A fresh, empty database on the cluster, present on every node when this resolves; answers its name. */
  createDatabase(): Promise<string>;
  /** One SQL statement as root on one node, which first catches up with the cluster (causal read). */
  query<T = Record<string, unknown>>(node: NodeNumber, sql: string): Promise<T[]>;
  stopNode(node: NodeNumber): Promise<void>;
  /** Starts a stopped node; resolves once it has rejoined and is Synced. */
  startNode(node: NodeNumber): Promise<void>;
  killNode(node: NodeNumber): Promise<void>;
  stop(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose twelve ports (SQL, group, IST and SST for three nodes) are all free. */
async function freeBase(): Promise<number> {
  for (let base = 23306; base < 33306; base += 100) {
    const ports = [0, 10, 20, 30].flatMap((offset) => NODES.map((n) => base + offset + n - 1));
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
  throw new Error('no free ports for a Galera test cluster between 23306 and 33306');
}

function script(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [SCRIPT, ...args], { env, timeout: 240_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`galera.sh ${args.join(' ')} failed: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/** Starts three Galera nodes in a temporary directory on free ports (test/cluster/galera.sh). */
export async function startGaleraCluster(): Promise<GaleraCluster> {
  const base = await freeBase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-galera-'));
  const env = { ...process.env, GALERA_DIR: dir, GALERA_PORT: String(base) };
  await script(env, 'start');
  const port = (node: NodeNumber) => base + node - 1;
  const url = (database: string, ...order: NodeNumber[]) => `mysql://root@${order.map((n) => `127.0.0.1:${port(n)}`).join(',')}/${database}`;
  const query = async <T>(node: NodeNumber, sql: string) => {
    const connection = await mysql.createConnection({ host: '127.0.0.1', port: port(node), user: 'root' });
    try {
      await connection.query('SET SESSION wsrep_sync_wait = 1');
      return (await connection.query(sql))[0] as T[];
    } finally {
      await connection.end();
    }
  };
  return {
    port,
    url,
    query,
    async createDatabase() {
      const name = `svc_c_${randomBytes(4).toString('hex')}`;
      await query(1, `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      // Other nodes apply the statement a moment later; a connection naming the database must not come first.
      const until = Date.now() + 30_000;
      for (const node of NODES) {
        while ((await query(node, `SHOW DATABASES LIKE '${name}'`)).length === 0) {
          if (Date.now() > until) throw new Error(`database ${name} did not appear on node ${node} within 30 s`);
          await sleep(100);
        }
      }
      return name;
    },
    stopNode: async (node) => void (await script(env, 'stop-node', String(node))),
    startNode: async (node) => void (await script(env, 'start-node', String(node))),
    killNode: async (node) => void (await script(env, 'kill-node', String(node))),
    async stop() {
      await script(env, 'stop');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
