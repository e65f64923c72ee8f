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

/** Inserts a row unless a unique key already holds it; true when it was inserted. */
export async function insertIfAbsent(db: Database, table: string, row: Row, transaction?: Transaction): Promise<boolean> {
  const cols = Object.keys(row);
  const q = db.quote;
  const verb = db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  const sql = `${verb} INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
  return (await db.insert(sql, Object.values(row), transaction)).affected > 0;
}
