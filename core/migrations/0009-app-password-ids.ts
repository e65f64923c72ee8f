import type { Migration } from '../db/migrator';

/**
 * The public id of an application password: its first 8 characters, stored
 * in clear, so a check finds the one record to hash against. Passwords made
 * before have none (NULL) and are checked against each such record of the user.
 */
export const appPasswordIds: Migration = {
  name: '0009-app-password-ids',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('application_passwords');
    await qi.addColumn(table, 'public_id', { type: T.string(8), allowNull: true });
    await qi.addIndex(table, ['user_id', 'public_id'], { name: `${table}_public_id` });
  },
};
