import { DataTypes } from 'sequelize';
import type { Migration } from '../db/migrator';

/**
 * Daily summaries of the statistics (core/statistics/summaries): one row per
 * site-timezone day and status (1 = 404 hits) with visitor sketches, one row
 * per day, status and value of each summarised dimension, and the fold state.
 */
export const statisticsSummaries: Migration = {
  name: '0004-statistics-summaries',
  async up({ db, queryInterface: qi, types: T }) {
    const sketch = db.dialect === 'mysql' ? DataTypes.BLOB('medium') : DataTypes.BLOB;
    const counters = {
      pageviews: { type: T.uint, allowNull: false, defaultValue: 0 },
      sessions: { type: T.uint, allowNull: false, defaultValue: 0 },
      bounces: { type: T.uint, allowNull: false, defaultValue: 0 },
      time_on_page: { type: T.bigint, allowNull: false, defaultValue: 0 },
      conversions: { type: T.uint, allowNull: false, defaultValue: 0 },
    };
    await qi.createTable(db.table('summary_days'), {
      day: { type: T.bigint, primaryKey: true },
      status: { type: T.tinyint, primaryKey: true },
      ...counters,
      visitors: { type: T.uint, allowNull: false, defaultValue: 0 },
      first_time_visitors: { type: T.uint, allowNull: false, defaultValue: 0 },
      visitor_sketch: { type: sketch, allowNull: true },
      first_time_sketch: { type: sketch, allowNull: true },
    });
    await qi.createTable(db.table('summary_dims'), {
      dimension: { type: T.string(32), primaryKey: true },
      status: { type: T.tinyint, primaryKey: true },
      day: { type: T.bigint, primaryKey: true },
      value: { type: T.string(255), primaryKey: true },
      ...counters,
    });
    await qi.createTable(db.table('summary_state'), {
      day: { type: T.bigint, primaryKey: true },
      folded_at: { type: T.bigint, allowNull: false },
      dirty: { type: T.tinyint, allowNull: false, defaultValue: 0 },
    });
  },
};
