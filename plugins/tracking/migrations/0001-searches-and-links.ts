import type { Migration } from '../../../core';

/**
 * Search terms and outbound links of tracking.md §2.3: the distinct terms and
 * their pageview joins (pending rows have a null statistic_id), and the
 * external-link lookup filled by the scraper with its pageview join
 * (unique per pageview: at most one outbound link each, §8).
 */
export const searchesAndLinks: Migration = {
  name: '0001-searches-and-links',
  async up({ db, queryInterface: qi, types: T }) {
    const index = (table: string, fields: string[], unique = false) =>
      qi.addIndex(db.table(table), fields, { name: `${db.table(table)}_${fields.join('_')}`, unique });

    await qi.createTable(db.table('searches'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      search_term: { type: T.string(191), allowNull: false },
      created: { type: T.bigint, allowNull: false, defaultValue: 0 },
    });
    await index('searches', ['search_term'], true);

    await qi.createTable(db.table('statistics_searches'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      statistic_id: { type: T.ref, allowNull: true },
      search_id: { type: T.ref, allowNull: false },
      results: { type: T.int, allowNull: true },
      uid: { type: T.string(64), allowNull: false, defaultValue: '' },
      time: { type: T.bigint, allowNull: false },
    });
    await index('statistics_searches', ['statistic_id']);
    await index('statistics_searches', ['search_id', 'statistic_id']);
    await index('statistics_searches', ['time']);

    await qi.createTable(db.table('external_links'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      url: { type: T.string(255), allowNull: false },
      host: { type: T.string(255), allowNull: false, defaultValue: '' },
      created: { type: T.bigint, allowNull: false, defaultValue: 0 },
    });
    await index('external_links', ['url'], true);

    await qi.createTable(db.table('statistics_external_links'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      statistic_id: { type: T.ref, allowNull: false },
      external_link_id: { type: T.ref, allowNull: false },
      time: { type: T.bigint, allowNull: false },
    });
    await index('statistics_external_links', ['statistic_id'], true);
    await index('statistics_external_links', ['external_link_id']);
  },
};
