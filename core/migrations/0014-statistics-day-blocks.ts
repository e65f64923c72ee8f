import { DataTypes } from 'sequelize';
import type { Migration } from '../db/migrator';

/**
 * The day blocks of folded days (core/statistics/blocks), written with each
 * fold so a start reads them instead of a year of raw hits: per site and day,
 * the fold they were read after and the encoded block.
 */
export const statisticsDayBlocks: Migration = {
  name: '0014-statistics-day-blocks',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.createTable(db.table('summary_blocks'), {
      site_id: { type: T.uint, primaryKey: true },
      day: { type: T.bigint, primaryKey: true },
      folded_at: { type: T.bigint, allowNull: false },
      pageviews: { type: T.uint, allowNull: false },
      data: { type: db.dialect === 'mysql' ? DataTypes.BLOB('long') : DataTypes.BLOB, allowNull: false },
    });
  },
};
