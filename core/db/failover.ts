import type { Sequelize } from 'sequelize';
import { dbErrorKind } from './db-errors';
import type { DatabaseHost } from './hosts';

type Callback = (err: unknown, ...rest: unknown[]) => void;

/** The mysql2 connection as far as this file uses it. */
interface DriverConnection {
  query(sql: string, callback: Callback): unknown;
  execute(...args: unknown[]): unknown;
  on(event: 'error', listener: (err: unknown) => void): unknown;
  destroy(): void;
  /** Index in the host list of the server this connection talks to. */
  svcHost?: number;
}

interface ConnectionManager {
  connect(config: Record<string, unknown>): Promise<DriverConnection>;
  validate(connection: DriverConnection): boolean;
}

/** What a process knows about the servers of its list. */
export interface Failover {
  /** The server new connections go to. */
  current(): DatabaseHost;
  /** True once a server has shown it is a Galera node. */
  galera(): boolean;
}

/** Session settings on a Galera node: reads wait until the node has applied every earlier commit of the cluster; a conflicting autocommit statement is retried by the server. */
const GALERA_SESSION = 'SET SESSION wsrep_sync_wait = 1, wsrep_retry_autocommit = 4';

function run(connection: DriverConnection, sql: string): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) =>
    connection.query(sql, (err, rows) => (err ? reject(err) : resolve(rows as Array<Record<string, unknown>>))),
  );
}

const notReady = () => Object.assign(new Error('this Galera node is not ready: it is not part of the primary component'), { errno: 1047 });

/** Readies a new connection; true when its server is a Galera node. Throws a `gone` error for a node that cannot serve. */
async function prepare(connection: DriverConnection): Promise<boolean> {
  const [wsrep] = await run(connection, "SHOW VARIABLES LIKE 'wsrep_on'");
  if (wsrep?.Value !== 'ON') return false;
  const [ready] = await run(connection, "SHOW STATUS LIKE 'wsrep_ready'");
  if (ready?.Value !== 'ON') throw notReady();
  await run(connection, GALERA_SESSION);
  return true;
}

/** Calls `onError` with every error a connection's queries end with, then hands it on unchanged. */
function observe(connection: DriverConnection, onError: (err: unknown) => void): void {
  for (const method of ['query', 'execute'] as const) {
    const original = (connection[method] as (...args: unknown[]) => unknown).bind(connection);
    connection[method] = (...args: unknown[]) => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: unknown, ...rest: unknown[]) => {
          if (err) onError(err);
          (callback as Callback)(err, ...rest);
        };
      }
      return original(...args);
    };
  }
  connection.on('error', onError);
}

/**
 * Spreads one process's connections over the servers of `SVC_DATABASE_URL`
 * in order: all go to one server; when it goes away (refuses connections,
 * shuts down, or as a Galera node leaves the primary component) new
 * connections go to the next server of the list, and pooled ones to the old
 * server are dropped as they come up for use. There is no fail-back: the
 * process stays on the server that works until that one goes away.
 */
export function installFailover(sequelize: Sequelize, hosts: readonly DatabaseHost[], onSwitch: (from: DatabaseHost, to: DatabaseHost, why: string) => void): Failover {
  const manager = sequelize.connectionManager as unknown as ConnectionManager;
  const connect = manager.connect.bind(manager);
  const validate = manager.validate.bind(manager);
  let current = 0;
  let galera = false;

  const moveOn = (from: number, to: number, why: unknown) => {
    if (from !== current || to === current) return;
    current = to;
    onSwitch(hosts[from]!, hosts[to]!, why instanceof Error ? why.message : String(why));
  };

  manager.connect = async (config) => {
    let lastError: unknown;
    for (let step = 0; step < hosts.length; step++) {
      const index = (current + step) % hosts.length;
      let connection: DriverConnection | undefined;
      try {
        connection = await connect({ ...config, host: hosts[index]!.host, port: hosts[index]!.port });
        galera = (await prepare(connection)) || galera;
      } catch (err) {
        connection?.destroy();
        if (dbErrorKind(err) !== 'gone') throw err;
        lastError = err;
        continue;
      }
      connection.svcHost = index;
      observe(connection, (err) => dbErrorKind(err) === 'gone' && moveOn(index, (index + 1) % hosts.length, err));
      moveOn(current, index, lastError);
      return connection;
    }
    throw lastError;
  };
  manager.validate = (connection) => validate(connection) && (hosts.length === 1 || connection.svcHost === current);

  return { current: () => hosts[current]!, galera: () => galera };
}
