import type { Migration } from '../../../core';

/**
 * A share token belongs to one site (`site_id`, existing tokens on the
 * default site 1) and never reads another; the admin lists one site's tokens.
 */
export const shareTokenSites: Migration = {
  name: '0002-sites',
  async up({ db, queryInterface: qi, types: T }) {
    const table = db.table('share_tokens');
    await qi.addColumn(table, 'site_id', { type: T.int, allowNull: false, defaultValue: 1 });
    await qi.addIndex(table, ['site_id', 'created'], { name: `${table}_site_created` });
  },
};
