import type { Migration } from '../db/migrator';

/**
 * Rate-limit counters of core/db/rate-limiter.ts: one row per budget key and
 * clock-aligned window. Replaces the table an earlier limiter library made
 * under the same name (its counters are only minutes old, so they go).
 */
export const rateLimits: Migration = {
  name: '0007-rate-limits',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.dropTable(db.table('rate_limits'));
    await qi.createTable(db.table('rate_limits'), {
      bucket: { type: T.string(191), primaryKey: true },
      window_start: { type: T.bigint, primaryKey: true },
      hits: { type: T.int, allowNull: false, defaultValue: 0 },
      expires: { type: T.bigint, allowNull: false },
    });
    await qi.addIndex(db.table('rate_limits'), ['expires'], { name: `${db.table('rate_limits')}_expires` });
  },
};
