import { DataTypes } from 'sequelize';
import type { Database } from '../db/database';
import type { Migration } from '../db/migrator';

/**
 * Marks the folded days that still have raw hits to be folded again (the
 * hourly job does it); days whose raw hits are gone (retention) keep their
 * summaries as they are. A day is at least 23 hours long, so the window finds
 * raw hits of the day itself, never of the next one.
 */
export async function refoldDaysWithHits(db: Database): Promise<number> {
  const state = db.quote(db.table('summary_state'));
  return db.execute(
    `UPDATE ${state} SET dirty = 1 WHERE EXISTS (SELECT 1 FROM ${db.quote(db.table('statistics'))} s WHERE s.time >= ${state}.day AND s.time < ${state}.day + 82800)`,
  );
}

/**
 * Visitors who completed a goal, as sketches beside the visitor sketches of
 * `summary_days` and `summary_days_month` (`converted_visitors`,
 * `converted_sketch`), so the conversion rate (converted visitors of all
 * visitors) comes from the summaries; and `summary_dim_sketches`: visitor
 * sketches per day, status and value of the dimensions that keep them (the
 * goal), so a goal's distinct visitors do too. Folded days whose raw hits are
 * still there are marked to be folded again; older days keep what they had.
 */
export const statisticsConversionSketches: Migration = {
  name: '0010-statistics-conversion-sketches',
  async up({ db, queryInterface: qi, types: T }) {
    const sketch = db.dialect === 'mysql' ? DataTypes.BLOB('medium') : DataTypes.BLOB;
    const counter = { type: T.uint, allowNull: false, defaultValue: 0 };
    for (const table of ['summary_days', 'summary_days_month']) {
      await qi.addColumn(db.table(table), 'converted_visitors', counter);
      await qi.addColumn(db.table(table), 'converted_sketch', { type: sketch, allowNull: true });
    }
    await qi.createTable(db.table('summary_dim_sketches'), {
      dimension: { type: T.string(32), primaryKey: true },
      status: { type: T.tinyint, primaryKey: true },
      day: { type: T.bigint, primaryKey: true },
      value: { type: T.string(255), primaryKey: true },
      visitors: counter,
      first_time_visitors: counter,
      converted_visitors: counter,
      visitor_sketch: { type: sketch, allowNull: true },
      first_time_sketch: { type: sketch, allowNull: true },
      converted_sketch: { type: sketch, allowNull: true },
    });
    await refoldDaysWithHits(db);
  },
};
