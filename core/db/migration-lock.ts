import type { Database } from './database';

interface MysqlConnection {
  query(sql: string, values: unknown[], cb: (err: Error | null, rows: Array<Record<string, unknown>>) => void): void;
}

function rawQuery(connection: MysqlConnection, sql: string, values: unknown[]) {
  return new Promise<Array<Record<string, unknown>>>((resolve, reject) =>
    connection.query(sql, values, (err, rows) => (err ? reject(err) : resolve(rows))),
  );
}

/**
 * Serialises schema changes between app nodes. MySQL holds a named lock on one
 * pinned connection; SQLite's single writer already serialises them.
 */
export async function withMigrationLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'mysql') return work();
  const manager = db.sequelize.connectionManager as unknown as {
    getConnection(): Promise<MysqlConnection>;
    releaseConnection(c: MysqlConnection): Promise<void>;
  };
  const connection = await manager.getConnection();
  const name = `${db.prefix}svc_migrations`;
  try {
    const [row] = await rawQuery(connection, 'SELECT GET_LOCK(?, 120) AS got', [name]);
    if (Number(row?.got) !== 1) throw new Error('timed out waiting for another node to finish migrating');
    try {
      return await work();
    } finally {
      await rawQuery(connection, 'SELECT RELEASE_LOCK(?)', [name]);
    }
  } finally {
    await manager.releaseConnection(connection);
  }
}
