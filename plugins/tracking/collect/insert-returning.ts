import type { Transaction } from 'sequelize';
import type { Database } from '../../../core/db/database';

type Value = string | number | null;

/** Multi-row INSERT that gives back the new ids in row order. */
export interface InsertReturning {
  insert(table: string, columns: readonly string[], rows: readonly Value[][], t?: Transaction): Promise<number[]>;
}

/**
 * How each engine reports the ids of a multi-row insert: MariaDB answers
 * `RETURNING ID`; MySQL gives the first id and the rest follow by
 * `auto_increment_increment`; SQLite (one writer, rowids counting up) gives
 * the last id and the rest precede it.
 */
export async function createInsertReturning(db: Database): Promise<InsertReturning> {
  const q = db.quote;
  const statement = (table: string, columns: readonly string[], rows: readonly Value[][]) =>
    `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}`;
  if (db.dialect === 'sqlite') {
    return {
      async insert(table, columns, rows, t) {
        const { id } = await db.insert(statement(table, columns, rows), rows.flat(), t);
        return rows.map((_, i) => id - (rows.length - 1) + i);
      },
    };
  }
  const [row] = await db.select<{ v: string; inc: number }>('SELECT VERSION() AS v, @@auto_increment_increment AS inc');
  if (/mariadb/i.test(row?.v ?? '')) {
    return {
      async insert(table, columns, rows, t) {
        const out = await db.select<{ ID: number }>(`${statement(table, columns, rows)} RETURNING ID`, rows.flat(), t);
        return out.map((r) => Number(r.ID)).sort((a, b) => a - b);
      },
    };
  }
  const increment = Number(row?.inc ?? 1) || 1;
  return {
    async insert(table, columns, rows, t) {
      const { id } = await db.insert(statement(table, columns, rows), rows.flat(), t);
      return rows.map((_, i) => id + i * increment);
    },
  };
}
