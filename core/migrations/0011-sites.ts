import type { Migration } from '../db/migrator';

/**
 * The websites of the install and people's roles per site. The first site
 * (id 1, the default) is inserted by the sites service on its first load,
 * which knows the configured host and time zone (core/sites/sites.ts).
 */
export const sitesTables: Migration = {
  name: '0011-sites',
  async up({ db, queryInterface: qi, types: T }) {
    await qi.createTable(db.table('sites'), {
      id: { type: T.id, primaryKey: true, autoIncrement: true },
      name: { type: T.string(190), allowNull: false },
      domain: { type: T.string(190), allowNull: true, unique: true },
      aliases: { type: T.text, allowNull: false },
      timezone: { type: T.string(64), allowNull: false },
      created_at: { type: T.bigint, allowNull: false },
    });
    await qi.createTable(db.table('site_roles'), {
      user_id: { type: T.ref, primaryKey: true },
      site_id: { type: T.ref, primaryKey: true },
      role: { type: T.string(16), allowNull: false },
    });
    await qi.addIndex(db.table('site_roles'), ['site_id'], { name: `${db.table('site_roles')}_site` });
  },
};
