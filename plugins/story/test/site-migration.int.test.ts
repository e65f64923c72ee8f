import { type MigratedDatabase, databaseBefore } from '../../../test/helpers/migrated-from-main';
import { storyMigrations } from '../migrations';

describe('share tokens of an install made before sites', () => {
  let m: MigratedDatabase;
  beforeAll(async () => {
    m = await databaseBefore('story', storyMigrations, '0002-sites');
  });
  afterAll(() => m?.close());

  it('stay valid, bound to the default site', async () => {
    const { db } = m;
    await db.execute(
      `INSERT INTO mg_svc_share_tokens (token, report_id, report_key, tab, view_query, permissions, shared_tabs, initial_state, created, expires) VALUES ('aaaa', 0, NULL, 'overview', '', '[]', '[]', '{}', 1, 0), ('bbbb', 7, 7, 'story', '', '[]', '[]', '{}', 2, 0)`,
    );
    expect(await m.upgrade()).toEqual(['story/0002-sites']);
    expect(await db.select('SELECT token, site_id FROM mg_svc_share_tokens ORDER BY token')).toEqual([
      { token: 'aaaa', site_id: 1 },
      { token: 'bbbb', site_id: 1 },
    ]);
  });
});
