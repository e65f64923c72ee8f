import { DataTypes } from 'sequelize';
import type { Migration } from '../db/migrator';

/**
 * Monthly roll-ups of `summary_days` (same columns, `day` = first day of the
 * month, sketches merged), so totals and visitors of long ranges read one row
 * per month and status instead of one per day.
 */
export const statisticsMonthTotals: Migration = {
  name: '0006-statistics-month-totals',
  async up({ db, queryInterface: qi, types: T }) {
    const sketch = db.dialect === 'mysql' ? DataTypes.BLOB('medium') : DataTypes.BLOB;
    const counter = { type: T.uint, allowNull: false, defaultValue: 0 };
    await qi.createTable(db.table('summary_days_month'), {
      day: { type: T.bigint, primaryKey: true },
      status: { type: T.tinyint, primaryKey: true },
      pageviews: counter,
      sessions: counter,
      bounces: counter,
      time_on_page: { type: T.bigint, allowNull: false, defaultValue: 0 },
      conversions: counter,
      visitors: counter,
      first_time_visitors: counter,
      visitor_sketch: { type: sketch, allowNull: true },
      first_time_sketch: { type: sketch, allowNull: true },
    });
  },
};
