import { DataTypes, type ModelAttributeColumnOptions } from 'sequelize';
import type { Migration, MigrationContext } from '../db/migrator';

type Columns = Record<string, ModelAttributeColumnOptions>;

/** The summary tables as 0004-0006 and 0010 made them, keyed by site first. */
function summaryTables({ db, types: T }: MigrationContext): Record<string, Columns> {
  const sketch = { type: db.dialect === 'mysql' ? DataTypes.BLOB('medium') : DataTypes.BLOB, allowNull: true };
  const counter = { type: T.uint, allowNull: false, defaultValue: 0 };
  const site = { site_id: { type: T.int, primaryKey: true, defaultValue: 1 } };
  const counters = { pageviews: counter, sessions: counter, bounces: counter, time_on_page: { type: T.bigint, allowNull: false, defaultValue: 0 }, conversions: counter };
  const visitors = { visitors: counter, first_time_visitors: counter, visitor_sketch: sketch, first_time_sketch: sketch, converted_visitors: counter, converted_sketch: sketch };
  const dimKey = {
    ...site,
    dimension: { type: T.string(32), primaryKey: true },
    status: { type: T.tinyint, primaryKey: true },
    day: { type: T.bigint, primaryKey: true },
    value: { type: T.string(255), primaryKey: true },
  };
  const dayKey = { ...site, day: { type: T.bigint, primaryKey: true }, status: { type: T.tinyint, primaryKey: true } };
  return {
    summary_days: { ...dayKey, ...counters, ...visitors },
    summary_days_month: { ...dayKey, ...counters, ...visitors },
    summary_dims: { ...dimKey, ...counters },
    summary_dims_month: { ...dimKey, ...counters },
    summary_dim_sketches: {
      ...dimKey,
      visitors: counter,
      first_time_visitors: counter,
      converted_visitors: counter,
      visitor_sketch: sketch,
      first_time_sketch: sketch,
      converted_sketch: sketch,
    },
    summary_state: { ...site, day: { type: T.bigint, primaryKey: true }, folded_at: { type: T.bigint, allowNull: false }, dirty: { type: T.tinyint, allowNull: false, defaultValue: 0 } },
  };
}

/**
 * Statistics per site: pageviews, sessions and goals get `site_id` (existing
 * rows belong to the first site), their time indexes lead with it, and the
 * summaries are rebuilt keyed by site first, their rows copied to site 1.
 * Lookup tables (browsers, platforms, devices, locations) stay shared, as do
 * the joins of pageviews with goals, whose site is their pageview's.
 */
export const siteScopedStatistics: Migration = {
  name: '0012-site-scoped-statistics',
  async up(context) {
    const { db, queryInterface: qi, types: T } = context;
    const site = { type: T.int, allowNull: false, defaultValue: 1 };
    const index = (table: string, fields: string[]) => qi.addIndex(db.table(table), fields, { name: `${db.table(table)}_${fields.join('_')}` });
    const dropIndex = (table: string, fields: string[]) => qi.removeIndex(db.table(table), `${db.table(table)}_${fields.join('_')}`);

    for (const table of ['statistics', 'sessions', 'goals']) await qi.addColumn(db.table(table), 'site_id', site);
    await dropIndex('statistics', ['time']);
    await index('statistics', ['site_id', 'time']);
    await dropIndex('sessions', ['time']);
    await index('sessions', ['site_id', 'time']);
    await dropIndex('sessions', ['uid', 'last_time']);
    await index('sessions', ['uid', 'site_id', 'last_time']);
    await index('goals', ['site_id']);

    for (const [name, columns] of Object.entries(summaryTables(context))) {
      const table = db.table(name);
      const old = db.table(`${name}_pre_sites`);
      await qi.renameTable(table, old);
      await qi.createTable(table, columns);
      const kept = Object.keys(columns).filter((c) => c !== 'site_id').map(db.quote).join(', ');
      await db.execute(`INSERT INTO ${db.quote(table)} (site_id, ${kept}) SELECT 1, ${kept} FROM ${db.quote(old)}`);
      await qi.dropTable(old);
    }
  },
};
