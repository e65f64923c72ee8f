import type { Transaction } from 'sequelize';
import { type Database, insertIgnoring } from '../../core';

/** The quoted name of one of the plugin's (or the kernel's) tables. */
export const tbl = (db: Database, name: string): string => db.quote(db.table(name));

/** Inserts a row, or nothing when a unique key already holds it; the new ID, or 0 when it was a duplicate. */
export async function insertIgnore(db: Database, table: string, row: Record<string, unknown>, t?: Transaction): Promise<number> {
  const { id, affected } = await insertIgnoring(db, db.table(table), Object.keys(row), [Object.values(row)], t);
  return affected > 0 ? id : 0;
}

/** Inserts rows of the same columns, a few hundred per statement. */
export async function insertRows(db: Database, table: string, rows: ReadonlyArray<Record<string, unknown>>, t?: Transaction): Promise<void> {
  const cols = Object.keys(rows[0] ?? {});
  const head = `INSERT INTO ${tbl(db, table)} (${cols.map((c) => db.quote(c)).join(', ')}) VALUES `;
  const tuple = `(${cols.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    await db.execute(head + chunk.map(() => tuple).join(', '), chunk.flatMap((r) => cols.map((c) => r[c])), t);
  }
}

/** Numbers from DECIMAL and BIGINT columns (MariaDB answers strings). */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

export const round = (n: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round((n + Number.EPSILON) * f) / f;
};
