import type { Migration } from '../db/migrator';

/**
 * Logins compare exactly, byte for byte, on both dialects: MySQL's
 * case- and accent-insensitive collation let `ＡＤＭＩＮ` or `ÁDMİN` find
 * `admin`. SQLite compares text in binary already.
 */
export const exactLogins: Migration = {
  name: '0008-exact-logins',
  async up({ db }) {
    if (db.dialect !== 'mysql') return;
    await db.execute(`ALTER TABLE ${db.quote(db.table('users'))} MODIFY user_login VARCHAR(60) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL`);
  },
};
