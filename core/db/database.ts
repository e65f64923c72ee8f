import fs from 'node:fs';
import path from 'node:path';
import { Sequelize, type Options, type QueryOptions, QueryTypes, Transaction } from 'sequelize';
import { SvcError, describeError } from '../errors';

export type Dialect = 'sqlite' | 'mysql';

/** The database handle every service and plugin receives. */
export interface Database {
  readonly sequelize: Sequelize;
  readonly dialect: Dialect;
  readonly prefix: string;
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
   * the start (BEGIN IMMEDIATE), so a transaction that reads, then writes
   * waits its turn instead of failing with SQLITE_BUSY; MySQL locks rows as
   * the statements ask (`FOR UPDATE`).
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
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: unknown): Promise<{ configure(option: 'busyTimeout', ms: number): void; run(sql: string): void }>;
  };
  const configured = new WeakSet<object>();
  const original = manager.getConnection.bind(manager);
  manager.getConnection = async (options?: unknown) => {
    const connection = await original(options);
    if (!configured.has(connection)) {
      connection.configure('busyTimeout', 15_000);
      connection.run('PRAGMA synchronous=NORMAL');
      configured.add(connection);
    }
    return connection;
  };
}

function createSequelize(url: string): { sequelize: Sequelize; dialect: Dialect } {
  const common: Options = { logging: false, benchmark: false };
  if (url.startsWith('sqlite:')) {
    const storage = sqliteStorage(url);
    if (storage !== ':memory:') fs.mkdirSync(path.dirname(storage), { recursive: true });
    const sequelize = new Sequelize({ ...common, dialect: 'sqlite', storage, pool: { max: 1, min: 0 } });
    configureSqliteConnections(sequelize);
    return { sequelize, dialect: 'sqlite' };
  }
  const sequelize = new Sequelize(url.replace(/^mariadb:/, 'mysql:'), {
    ...common,
    dialect: 'mysql',
    timezone: '+00:00',
    pool: { max: Number(process.env.SVC_DB_POOL_MAX || 20), min: 0, idle: 10_000, acquire: 30_000 },
    dialectOptions: { charset: 'utf8mb4', connectTimeout: 10_000, supportBigNumbers: true, bigNumberStrings: false },
    define: { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
  });
  return { sequelize, dialect: 'mysql' };
}

/**
 * Opens the database of `SVC_DATABASE_URL`. An unreachable database throws one
 * `SVC_ERR_DB_UNREACHABLE` error whose message names the (redacted) URL.
 */
export async function connectDatabase(url: string, prefix: string): Promise<Database> {
  const { sequelize, dialect } = createSequelize(url);
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

  return {
    sequelize,
    dialect,
    prefix,
    table: (name) => `${prefix}svc_${name}`,
    quote,
    async select<T>(sql: string, replacements?: unknown, transaction?: Transaction) {
      return (await sequelize.query(sql, { ...options(replacements, transaction), type: QueryTypes.SELECT })) as T[];
    },
    async execute(sql, replacements, transaction) {
      const verb = sql.trimStart().slice(0, 6).toUpperCase();
      if (verb === 'DELETE') {
        return (await sequelize.query(sql, { ...options(replacements, transaction), type: QueryTypes.BULKDELETE })) as number;
      }
      const type = verb === 'INSERT' ? QueryTypes.INSERT : QueryTypes.UPDATE;
      const [, affected] = (await sequelize.query(sql, { ...options(replacements, transaction), type })) as [unknown, number];
      return affected;
    },
    async insert(sql, replacements, transaction) {
      const [id, affected] = (await sequelize.query(sql, { ...options(replacements, transaction), type: QueryTypes.INSERT })) as [number, number];
      return { id: affected > 0 ? Number(id) : 0, affected };
    },
    transaction: (work, { writes = false } = {}) =>
      writes && dialect === 'sqlite' ? sequelize.transaction({ type: Transaction.TYPES.IMMEDIATE }, work) : sequelize.transaction(work),
    close: () => sequelize.close(),
  };
}
