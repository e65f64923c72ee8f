import type { Migration } from '../db/migrator';

/**
 * Monthly roll-ups of `summary_dims` (same columns, `day` = first day of the
 * month), so ranges of many months read about one row per value and month.
 */
export const statisticsMonthRollups: Migration = {
  name: '0005-statistics-month-rollups',
  async up({ db, queryInterface: qi, types: T }) {
    const counter = { type: T.uint, allowNull: false, defaultValue: 0 };
    await qi.createTable(db.table('summary_dims_month'), {
      dimension: { type: T.string(32), primaryKey: true },
      status: { type: T.tinyint, primaryKey: true },
      day: { type: T.bigint, primaryKey: true },
      value: { type: T.string(255), primaryKey: true },
      pageviews: counter,
      sessions: counter,
      bounces: counter,
      time_on_page: { type: T.bigint, allowNull: false, defaultValue: 0 },
      conversions: counter,
    });
  },
};
