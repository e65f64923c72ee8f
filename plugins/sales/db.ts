import type { Transaction } from 'sequelize';
import type { Database } from '../../core/db/database';

/** The quoted name of one of the plugin's (or the kernel's) tables. */
export const tbl = (db: Database, name: string): string => db.quote(db.table(name));

/** Inserts a row, or nothing when a unique key already holds it; the new ID, or 0 when it was a duplicate. */
export async function insertIgnore(db: Database, table: string, row: Record<string, unknown>, t?: Transaction): Promise<number> {
  const cols = Object.keys(row);
  const verb = db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  const sql = `${verb} INTO ${tbl(db, table)} (${cols.map((c) => db.quote(c)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
  const { id, affected } = await db.insert(sql, Object.values(row), t);
  return affected > 0 ? id : 0;
}

/** Inserts a row and returns its ID. */
export async function insertRow(db: Database, table: string, row: Record<string, unknown>, t?: Transaction): Promise<number> {
  const cols = Object.keys(row);
  const sql = `INSERT INTO ${tbl(db, table)} (${cols.map((c) => db.quote(c)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
  return (await db.insert(sql, Object.values(row), t)).id;
}

/** Numbers from DECIMAL and BIGINT columns (MariaDB answers strings). */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

export const round = (n: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round((n + Number.EPSILON) * f) / f;
};
