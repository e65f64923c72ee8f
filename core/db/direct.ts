import type { Connection as MysqlConnection } from 'mysql2';
import type { Sequelize } from 'sequelize';
import type { Database as SqliteHandle } from 'sqlite3';
import type { Dialect } from './database';
import { dbErrorKind } from './db-errors';
import { retryTransaction } from './retry';
import type { Serial } from './serial';

export type DirectValue = string | number | null;

/** Statements on one connection: a transaction's, or the pool's. */
export interface DirectStatements {
  /** Rows of a SELECT (or of an INSERT ... RETURNING). */
  all<T>(sql: string, values: DirectValue[]): Promise<T[]>;
  /** An INSERT, UPDATE or DELETE: the last id it inserted and the rows it changed. */
  run(sql: string, values: DirectValue[]): Promise<{ lastId: number; changes: number }>;
}

/**
 * The driver under sequelize (mysql2, sqlite3), for the few fixed statements
 * of a hot path where the ORM's per-query work is most of the cost. SQL goes
 * in as text with `?` placeholders, values apart, as with `db.select`.
 * MariaDB/MySQL statements run on connections borrowed from sequelize's pool
 * (same settings, same limits); SQLite gets a handle for reads and one for
 * write transactions, taken one at a time.
 */
export interface DirectDatabase extends DirectStatements {
  /** Runs `work` in a transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (statements: DirectStatements) => Promise<T>): Promise<T>;
  /**
   * MariaDB only: runs a compound statement (`BEGIN NOT ATOMIC ... END`) that
   * starts and commits its own transaction, in one round trip, and gives the
   * rows of its last result set. It is rolled back when it fails, run again
   * whole when it lost a conflict, and a server gone while it ran leaves its
   * outcome unknown (`SVC_ERR_DB_COMMIT_UNKNOWN`).
   */
  script<T>(sql: string, values: DirectValue[]): Promise<T[]>;
  close(): Promise<void>;
}

function mysqlStatements(connection: MysqlConnection): DirectStatements {
  return {
    all: <T>(sql: string, values: DirectValue[]) =>
      new Promise<T[]>((resolve, reject) => connection.query(sql, values, (err, rows) => (err ? reject(err) : resolve(rows as T[])))),
    run: (sql, values) =>
      new Promise((resolve, reject) =>
        connection.query(sql, values, (err, result) => {
          if (err) return reject(err);
          const header = result as { insertId: number; affectedRows: number };
          resolve({ lastId: Number(header.insertId), changes: header.affectedRows });
        }),
      ),
  };
}

function mysqlDirect(sequelize: Sequelize): DirectDatabase {
  const pool = sequelize.connectionManager;
  const borrow = async <T>(work: (statements: DirectStatements) => Promise<T>): Promise<T> => {
    // sequelize types its pooled connections as `object`; with the mysql dialect they are mysql2's.
    const connection = (await pool.getConnection({ type: 'write' })) as MysqlConnection;
    try {
      return await work(mysqlStatements(connection));
    } finally {
      pool.releaseConnection(connection);
    }
  };
  return {
    all: (sql, values) => borrow((s) => s.all(sql, values)),
    run: (sql, values) => borrow((s) => s.run(sql, values)),
    // Run again whole when it loses a conflict or its server before COMMIT, as sequelize transactions are (retry.ts).
    transaction: (work) =>
      retryTransaction((committing) =>
        borrow(async (s) => {
          await s.run('START TRANSACTION', []);
          try {
            const result = await work(s);
            committing();
            await s.run('COMMIT', []);
            return result;
          } catch (err) {
            await s.run('ROLLBACK', []).catch(() => undefined);
            throw err;
          }
        }),
      ),
    script: <T>(sql: string, values: DirectValue[]) =>
      retryTransaction((committing) =>
        borrow(async (s) => {
          // The COMMIT travels with the rest: once sent, a lost server means an unknown outcome.
          committing();
          try {
            return lastRows<T>(await s.all<unknown>(sql, values));
          } catch (err) {
            if (dbErrorKind(err) !== 'gone') await s.run('ROLLBACK', []).catch(() => undefined);
            throw err;
          }
        }),
      ),
    close: async () => undefined,
  };
}

/** The rows of the last result set a compound statement answered (the driver lists each statement's result). */
function lastRows<T>(results: unknown[]): T[] {
  for (let i = results.length - 1; i >= 0; i--) if (Array.isArray(results[i])) return results[i] as T[];
  return [];
}

function sqliteStatements(handle: SqliteHandle): DirectStatements {
  return {
    all: <T>(sql: string, values: DirectValue[]) =>
      new Promise<T[]>((resolve, reject) => handle.all(sql, values, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)))),
    run: (sql, values) =>
      new Promise((resolve, reject) =>
        handle.run(sql, values, function (this: { lastID: number; changes: number }, err: Error | null) {
          if (err) reject(err);
          else resolve({ lastId: this.lastID, changes: this.changes });
        }),
      ),
  };
}

/** A handle with the settings sequelize's handles get (database.ts). */
async function openSqlite(storage: string): Promise<SqliteHandle> {
  const sqlite3 = await import('sqlite3');
  const handle = await new Promise<SqliteHandle>((resolve, reject) => {
    const opened: SqliteHandle = new sqlite3.Database(storage, (err) => (err ? reject(err) : resolve(opened)));
  });
  handle.configure('busyTimeout', 15_000);
  const statements = sqliteStatements(handle);
  await statements.run('PRAGMA synchronous=NORMAL', []);
  await statements.run('PRAGMA foreign_keys=ON', []);
  return handle;
}

/** `storage` is the file; an in-memory database has one handle, sequelize's. */
function sqliteDirect(sequelize: Sequelize, storage: string, writes: Serial): DirectDatabase {
  // sequelize types its connections as `object`; with the sqlite dialect they are sqlite3 handles.
  const shared = storage === ':memory:' ? (sequelize.connectionManager.getConnection({ type: 'write' }) as Promise<SqliteHandle>) : null;
  let reader: Promise<SqliteHandle> | null = null;
  let writer: Promise<SqliteHandle> | null = null;
  const readHandle = () => (reader ??= shared ?? openSqlite(storage));
  const writeHandle = () => (writer ??= shared ?? openSqlite(storage));
  return {
    all: async (sql, values) => sqliteStatements(await readHandle()).all(sql, values),
    run: async (sql, values) => sqliteStatements(await readHandle()).run(sql, values),
    transaction<T>(work: (statements: DirectStatements) => Promise<T>): Promise<T> {
      const run = async () => {
        const s = sqliteStatements(await writeHandle());
        await s.run('BEGIN IMMEDIATE', []);
        try {
          const result = await work(s);
          await s.run('COMMIT', []);
          return result;
        } catch (err) {
          await s.run('ROLLBACK', []).catch(() => undefined);
          throw err;
        }
      };
      return writes(run);
    },
    script: () => Promise.reject(new Error('compound statements are MariaDB only')),
    async close() {
      await writes(async () => undefined);
      if (shared) return;
      const handles = await Promise.all([reader, writer].filter((h): h is Promise<SqliteHandle> => h !== null).map((h) => h.catch(() => null)));
      reader = writer = null;
      await Promise.all(handles.map((h) => h && new Promise<void>((resolve) => h.close(() => resolve()))));
    },
  };
}

/** `sqliteWrites` is the database's one queue of SQLite write transactions (database.ts). */
export function createDirect(sequelize: Sequelize, dialect: Dialect, sqliteStorage: string, sqliteWrites: Serial): DirectDatabase {
  return dialect === 'mysql' ? mysqlDirect(sequelize) : sqliteDirect(sequelize, sqliteStorage, sqliteWrites);
}
