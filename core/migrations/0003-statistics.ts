import type { Migration } from '../db/migrator';

/**
 * The statistics schema of tracking.md §2.2-2.3 that the query engine reads and
 * the tracking plugin writes: pageviews, sessions, lookups, locations and goals.
 */
export const statisticsTables: Migration = {
  name: '0003-statistics',
  async up({ db, queryInterface: qi, types: T }) {
    const index = (table: string, fields: string[], unique = false) =>
      qi.addIndex(db.table(table), fields, { name: `${db.table(table)}_${fields.join('_')}`, unique });

    await qi.createTable(db.table('statistics'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      page_url: { type: T.string(255), allowNull: false, defaultValue: '' },
      parameters: { type: T.string(255), allowNull: false, defaultValue: '' },
      fragment: { type: T.string(255), allowNull: false, defaultValue: '' },
      page_id: { type: T.bigint, allowNull: false, defaultValue: 0 },
      page_type: { type: T.string(50), allowNull: false, defaultValue: '' },
      time: { type: T.bigint, allowNull: false },
      uid: { type: T.string(64), allowNull: false, defaultValue: '' },
      time_on_page: { type: T.uint, allowNull: false, defaultValue: 0 },
      session_id: { type: T.ref, allowNull: false, defaultValue: 0 },
    });
    await index('statistics', ['time']);
    await index('statistics', ['uid', 'time']);
    await index('statistics', ['session_id']);

    await qi.createTable(db.table('sessions'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      uid: { type: T.string(64), allowNull: false, defaultValue: '' },
      time: { type: T.bigint, allowNull: false },
      last_time: { type: T.bigint, allowNull: false },
      first_visited_url: { type: T.text, allowNull: true },
      last_visited_url: { type: T.text, allowNull: true },
      host: { type: T.string(255), allowNull: false, defaultValue: '' },
      referrer: { type: T.string(255), allowNull: false, defaultValue: '' },
      goal_id: { type: T.ref, allowNull: false, defaultValue: 0 },
      city_code: { type: T.bigint, allowNull: false, defaultValue: 0 },
      browser_id: { type: T.uint, allowNull: false, defaultValue: 0 },
      browser_version_id: { type: T.uint, allowNull: false, defaultValue: 0 },
      platform_id: { type: T.uint, allowNull: false, defaultValue: 0 },
      device_id: { type: T.uint, allowNull: false, defaultValue: 0 },
      first_time_visit: { type: T.tinyint, allowNull: false, defaultValue: 0 },
      bounce: { type: T.tinyint, allowNull: false, defaultValue: 1 },
    });
    await index('sessions', ['time']);
    await index('sessions', ['uid', 'last_time']);

    for (const lookup of ['browsers', 'browser_versions', 'platforms', 'devices']) {
      await qi.createTable(db.table(lookup), {
        ID: { type: T.id, primaryKey: true, autoIncrement: true },
        name: { type: T.string(191), allowNull: false, unique: true },
      });
    }

    await qi.createTable(db.table('locations'), {
      city_code: { type: T.bigint, primaryKey: true },
      country_code: { type: T.string(2), allowNull: false, defaultValue: '' },
      continent_code: { type: T.string(2), allowNull: false, defaultValue: '' },
      state: { type: T.string(255), allowNull: false, defaultValue: '' },
      city: { type: T.string(255), allowNull: false, defaultValue: '' },
    });
    await index('locations', ['country_code']);

    await qi.createTable(db.table('goals'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      title: { type: T.string(255), allowNull: false, defaultValue: '' },
      type: { type: T.string(30), allowNull: false, defaultValue: 'clicks' },
      status: { type: T.string(20), allowNull: false, defaultValue: 'inactive' },
      url: { type: T.string(255), allowNull: false, defaultValue: '*' },
      page_id: { type: T.bigint, allowNull: false, defaultValue: 0 },
      selector: { type: T.string(255), allowNull: false, defaultValue: '' },
      hook: { type: T.string(191), allowNull: false, defaultValue: '' },
      conversion_metric: { type: T.string(30), allowNull: false, defaultValue: 'visitors' },
      block_goal: { type: T.tinyint, allowNull: false, defaultValue: 0 },
      block_uid: { type: T.string(64), allowNull: false, defaultValue: '' },
      date_created: { type: T.bigint, allowNull: false, defaultValue: 0 },
    });

    await qi.createTable(db.table('goal_statistics'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      statistic_id: { type: T.ref, allowNull: false },
      goal_id: { type: T.ref, allowNull: false },
    });
    await index('goal_statistics', ['statistic_id', 'goal_id'], true);
    await index('goal_statistics', ['goal_id']);
  },
};
