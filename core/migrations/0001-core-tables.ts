import type { Migration } from '../db/migrator';

/** Options, transients, users, application passwords and sessions. */
export const coreTables: Migration = {
  name: '0001-core-tables',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.createTable(db.table('options'), {
      option_id: { type: T.id, primaryKey: true, autoIncrement: true },
      option_name: { type: T.string(191), allowNull: false, unique: true },
      option_value: { type: T.longText, allowNull: false },
      autoload: { type: T.bool, allowNull: false, defaultValue: true },
      updated_at: { type: T.bigint, allowNull: false, defaultValue: 0 },
    });
    await qi.addIndex(db.table('options'), ['autoload'], { name: `${db.table('options')}_autoload` });

    await qi.createTable(db.table('transients'), {
      name: { type: T.string(191), primaryKey: true },
      value: { type: T.longText, allowNull: false },
      expires_at: { type: T.bigint, allowNull: false, defaultValue: 0 },
    });

    await qi.createTable(db.table('users'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      user_login: { type: T.string(60), allowNull: false, unique: true },
      user_email: { type: T.string(100), allowNull: false, defaultValue: '' },
      user_pass: { type: T.string(255), allowNull: false },
      role: { type: T.string(32), allowNull: false },
      display_name: { type: T.string(250), allowNull: false, defaultValue: '' },
      is_system: { type: T.bool, allowNull: false, defaultValue: false },
      user_registered: { type: T.bigint, allowNull: false },
    });

    await qi.createTable(db.table('application_passwords'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      uuid: { type: T.string(36), allowNull: false, unique: true },
      user_id: { type: T.ref, allowNull: false },
      name: { type: T.string(191), allowNull: false },
      password: { type: T.string(255), allowNull: false },
      created: { type: T.bigint, allowNull: false },
      last_used: { type: T.bigint, allowNull: true },
      last_ip: { type: T.string(45), allowNull: true },
    });
    await qi.addIndex(db.table('application_passwords'), ['user_id'], { name: `${db.table('application_passwords')}_user` });

    await qi.createTable(db.table('auth_sessions'), {
      sid: { type: T.string(64), primaryKey: true },
      expires: { type: T.date, allowNull: true },
      data: { type: T.longText, allowNull: true },
      user_id: { type: T.ref, allowNull: true },
      createdAt: { type: T.date, allowNull: true },
      updatedAt: { type: T.date, allowNull: true },
    });
    await qi.addIndex(db.table('auth_sessions'), ['user_id'], { name: `${db.table('auth_sessions')}_user` });
    await qi.addIndex(db.table('auth_sessions'), ['expires'], { name: `${db.table('auth_sessions')}_expires` });
  },
};
