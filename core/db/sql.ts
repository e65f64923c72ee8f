import type { Transaction } from 'sequelize';
import type { Database } from './database';

type Row = Record<string, unknown>;

/**
 * Inserts a row or, when a unique key already holds it, updates `update`
 * columns. Column names come from code, never from input.
 */
export async function upsert(
  db: Database,
  table: string,
  row: Row,
  conflict: readonly string[],
  update: readonly string[],
  transaction?: Transaction,
): Promise<void> {
  const cols = Object.keys(row);
  const q = db.quote;
  const head = `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
  const tail =
    db.dialect === 'mysql'
      ? ` ON DUPLICATE KEY UPDATE ${update.map((c) => `${q(c)} = VALUES(${q(c)})`).join(', ')}`
      : ` ON CONFLICT (${conflict.map(q).join(', ')}) DO UPDATE SET ${update.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}`;
  await db.execute(head + tail, Object.values(row), transaction);
}

/**
 * Per dialect: what ends a SELECT that locks the rows it reads until the
 * transaction ends. SQLite needs none: a `writes` transaction holds the
 * database's one write lock (database.ts).
 */
export const LOCK_ROWS = { mysql: ' FOR UPDATE', sqlite: '' } as const;

/** Per dialect: an insert that skips rows a unique key already holds. */
const INSERT_IGNORE = { mysql: 'INSERT IGNORE', sqlite: 'INSERT OR IGNORE' } as const;

/**
 * Inserts rows of the given columns in one statement, skipping those a unique
 * key already holds: how many were inserted, and the new ID when one row was.
 */
export async function insertIgnoring(
  db: Database,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
  transaction?: Transaction,
): Promise<{ id: number; affected: number }> {
  const q = db.quote;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const sql = `${INSERT_IGNORE[db.dialect]} INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
  return db.insert(sql, rows.flat(), transaction);
}

/** Inserts a row unless a unique key already holds it; true when it was inserted. */
export async function insertIfAbsent(db: Database, table: string, row: Row, transaction?: Transaction): Promise<boolean> {
  return (await insertIgnoring(db, table, Object.keys(row), [Object.values(row)], transaction)).affected > 0;
}

/**
 * Inserts rows of the given columns in one statement; a row whose unique key
 * (`conflict`) the table already holds, as its collation compares, adds its
 * `sum` columns to the stored row instead.
 */
export async function insertSumming(
  db: Database,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
  conflict: readonly string[],
  sum: readonly string[],
  transaction?: Transaction,
): Promise<void> {
  const q = db.quote;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const tail =
    db.dialect === 'mysql'
      ? ` ON DUPLICATE KEY UPDATE ${sum.map((c) => `${q(c)} = ${q(c)} + VALUES(${q(c)})`).join(', ')}`
      : ` ON CONFLICT (${conflict.map(q).join(', ')}) DO UPDATE SET ${sum.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`).join(', ')}`;
  await db.execute(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}${tail}`, rows.flat(), transaction);
}
