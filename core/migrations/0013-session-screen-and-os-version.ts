import type { Migration } from '../db/migrator';

/**
 * Sessions keep the viewport width class the tracker sends (`screen`, '' when
 * it sent none) and the operating system's version, a lookup like the
 * browser's (`platform_versions`, names such as "Windows 10").
 */
export const sessionScreenAndOsVersion: Migration = {
  name: '0013-session-screen-and-os-version',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.addColumn(db.table('sessions'), 'screen', { type: T.string(16), allowNull: false, defaultValue: '' });
    await qi.addColumn(db.table('sessions'), 'platform_version_id', { type: T.uint, allowNull: false, defaultValue: 0 });
    await qi.createTable(db.table('platform_versions'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      name: { type: T.string(191), allowNull: false, unique: true },
    });
  },
};
