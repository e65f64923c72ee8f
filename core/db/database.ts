import fs from 'node:fs';
import path from 'node:path';
import { Sequelize, type Options, type QueryOptions, QueryTypes, Transaction } from 'sequelize';
import type { Database as SqliteHandle } from 'sqlite3';
import { SvcError, describeError } from '../errors';
import type { SvcLogger } from '../logger';
import { type DirectDatabase, createDirect } from './direct';
import { installFailover } from './failover';
import { splitDatabaseHosts } from './hosts';
import { retryStatement, retryTransaction } from './retry';
import { serial } from './serial';

export type Dialect = 'sqlite' | 'mysql';

/** The database handle every service and plugin receives. */
export interface Database {
  readonly sequelize: Sequelize;
  readonly dialect: Dialect;
  readonly prefix: string;
  /** The driver itself, for the fixed statements of a hot path (see direct.ts); everything else uses the methods below. */
  readonly direct: DirectDatabase;
  /** `{prefix}svc_<name>`: the one way to spell a table name. */
  table(name: string): string;
  /** Quotes an identifier (table or column name) for the active dialect. */
  quote(identifier: string): string;
  /** Parameterised SELECT returning plain rows. */
  select<T = Record<string, unknown>>(sql: string, replacements?: unknown[] | Record<string, unknown>, transaction?: Transaction): Promise<T[]>;
  /** Parameterised UPDATE, DELETE or INSERT returning the affected row count. */
  execute(sql: string, replacements?: unknown[] | Record<string, unknown>, transaction?: Transaction): Promise<number>;
  /** Parameterised INSERT returning the new id (0 when nothing was inserted) and the affected rows. */
  insert(sql: string, replacements?: unknown[] | Record<string, unknown>, transaction?: Transaction): Promise<{ id: number; affected: number }>;
  /**
   * Runs `work` in a transaction. `writes: true` takes SQLite's write lock at
   * the start (BEGIN IMMEDIATE, one such transaction of the process at a
   * time), so a transaction that reads, then writes waits its turn instead of
   * failing with SQLITE_BUSY; on MySQL it reads what is committed (READ
   * COMMITTED), so a row locked with `FOR UPDATE` is read as the transaction
   * that held the lock left it. On MariaDB/MySQL a transaction that
   * loses a deadlock or a Galera certification conflict, or whose server
   * goes away before its COMMIT, runs again from the start (so `work` must
   * have no effects outside the database); see core/db/retry.ts.
   */
  transaction<T>(work: (t: Transaction) => Promise<T>, options?: { writes?: boolean }): Promise<T>;
  close(): Promise<void>;
}

/** The database URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

function sqliteStorage(url: string): string {
  const rest = url.replace(/^sqlite:(\/\/)?/, '');
  return rest === ':memory:' ? rest : path.resolve(rest);
}

/** sequelize opens one sqlite3 handle per transaction; each needs the same pragmas. */
function configureSqliteConnections(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager;
  const configured = new WeakSet<object>();
  const original = manager.getConnection.bind(manager);
  manager.getConnection = async (options) => {
    // sequelize types its connections as `object`; with the sqlite dialect they are sqlite3 handles.
    const connection = (await original(options)) as SqliteHandle;
    if (!configured.has(connection)) {
      connection.configure('busyTimeout', 15_000);
      connection.run('PRAGMA synchronous=NORMAL');
      configured.add(connection);
    }
    return connection;
  };
}

function createSequelize(url: string, logger?: SvcLogger): { sequelize: Sequelize; dialect: Dialect; storage: string } {
  const common: Options = { logging: false, benchmark: false };
  if (url.startsWith('sqlite:')) {
    const storage = sqliteStorage(url);
    if (storage !== ':memory:') fs.mkdirSync(path.dirname(storage), { recursive: true });
    const sequelize = new Sequelize({ ...common, dialect: 'sqlite', storage, pool: { max: 1, min: 0 } });
    configureSqliteConnections(sequelize);
    return { sequelize, dialect: 'sqlite', storage };
  }
  const { hosts, url: first } = splitDatabaseHosts(url);
  const sequelize = new Sequelize(first.replace(/^mariadb:/, 'mysql:'), {
    ...common,
    dialect: 'mysql',
    timezone: '+00:00',
    pool: { max: Number(process.env.SVC_DB_POOL_MAX || 20), min: 0, idle: 10_000, acquire: 30_000 },
    // Queries go as text with their values inlined by the driver; a connection's cache of prepared statements (16,000 slots
    // allocated up front by default, half a megabyte per pooled connection) only serves the rare bound statement.
    dialectOptions: { charset: 'utf8mb4', connectTimeout: 10_000, supportBigNumbers: true, bigNumberStrings: false, maxPreparedStatements: 64 },
    define: { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
  });
  installFailover(sequelize, hosts, (from, to, why) =>
    logger?.warn({ from: `${from.host}:${from.port}`, to: `${to.host}:${to.port}`, why }, `database server ${from.host}:${from.port} went away; using ${to.host}:${to.port}`),
  );
  return { sequelize, dialect: 'mysql', storage: '' };
}

/**
 * Opens the database of `SVC_DATABASE_URL` (for MariaDB/MySQL, a list of
 * servers to fail over between; core/db/failover.ts). An unreachable
 * database throws one `SVC_ERR_DB_UNREACHABLE` error whose message names
 * the (redacted) URL.
 */
export async function connectDatabase(url: string, prefix: string, logger?: SvcLogger): Promise<Database> {
  const { sequelize, dialect, storage } = createSequelize(url, logger);
  try {
    await sequelize.authenticate();
    if (dialect === 'sqlite') await sequelize.query('PRAGMA journal_mode=WAL');
  } catch (err) {
    await sequelize.close().catch(() => undefined);
    throw new SvcError('SVC_ERR_DB_UNREACHABLE', `cannot connect to the database ${redactUrl(url)}: ${describeError(err)}`, 503);
  }
  const quoteChar = dialect === 'mysql' ? '`' : '"';
  const quote = (identifier: string) => `${quoteChar}${identifier.replaceAll(quoteChar, quoteChar + quoteChar)}${quoteChar}`;
  const options = (replacements: unknown, transaction?: Transaction): QueryOptions => ({
    replacements: replacements as QueryOptions['replacements'],
    transaction,
  });
  /** A statement of its own is retried as core/db/retry.ts says; inside a transaction the transaction is. */
  const statement = <T>(transaction: Transaction | undefined, read: boolean, run: () => Promise<T>) =>
    transaction || dialect === 'sqlite' ? run() : retryStatement(run, { read });

  // SQLite has one writer. Write transactions of this process wait in one queue for the one before,
  // instead of each waiting inside SQLite's busy handler, which holds one of libuv's few threads.
  const sqliteWrites = serial();
  const direct = createDirect(sequelize, dialect, storage, sqliteWrites);

  return {
    sequelize,
    dialect,
    prefix,
    direct,
    table: (name) => `${prefix}svc_${name}`,
    quote,
    select<T>(sql: string, replacements?: unknown, transaction?: Transaction) {
      return statement(transaction, true, async () => (await sequelize.query(sql, { ...options(replacements, transaction), type: QueryTypes.SELECT })) as T[]);
    },
    execute(sql, replacements, transaction) {
      const verb = sql.trimStart().slice(0, 6).toUpperCase();
      return statement(transaction, false, async () => {
        if (verb === 'DELETE') {
          return (await sequelize.query(sql, { ...options(replacements, transaction), type: QueryTypes.BULKDELETE })) as number;
        }
        const type = verb === 'INSERT' ? QueryTypes.INSERT : QueryTypes.UPDATE;
        const [, affected] = (await sequelize.query(sql, { ...options(replacements, transaction), type })) as [unknown, number];
        return affected;
      });
    },
    insert(sql, replacements, transaction) {
      return statement(transaction, false, async () => {
        const [id, affected] = (await sequelize.query(sql, { ...options(replacements, transaction), type: QueryTypes.INSERT })) as [number, number];
        return { id: affected > 0 ? Number(id) : 0, affected };
      });
    },
    transaction: (work, { writes = false } = {}) => {
      if (dialect === 'sqlite') return writes ? sqliteWrites(() => sequelize.transaction({ type: Transaction.TYPES.IMMEDIATE }, work)) : sequelize.transaction(work);
      const options = writes ? { isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED } : {};
      return retryTransaction((committing) =>
        sequelize.transaction(options, async (t) => {
          const result = await work(t);
          committing();
          return result;
        }),
      );
    },
    async close() {
      await direct.close();
      await sequelize.close();
    },
  };
}
