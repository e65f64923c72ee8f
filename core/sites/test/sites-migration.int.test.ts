import { connectDatabase } from '../../db/database';
import { runMigrations } from '../../db/migrator';
import { createMemoryLogger } from '../../logger';
import { coreMigrations } from '../../migrations';
import { type TestDatabase, createTestDatabase } from '../../../test/helpers/test-db';
import { createTestKernel } from '../../../test/helpers/test-kernel';

describe('the sites migration on a database made before sites', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('keeps every row and gives the install its first site, named after its host, in its time zone', async () => {
    const { logger } = createMemoryLogger('warn');
    const db = await connectDatabase(database.url, '', logger);
    const before = coreMigrations.slice(0, coreMigrations.findIndex((m) => m.name === '0011-sites'));
    await runMigrations(db, 'core', before, logger);
    await db.execute(`INSERT INTO ${db.quote(db.table('options'))} (option_name, option_value, autoload, updated_at) VALUES (?, ?, ?, ?)`, ['kept', '"yes"', true, 1]);
    await db.close();

    const tk = await createTestKernel({ database, env: { SVC_TIMEZONE: 'Europe/Vienna' } });
    try {
      expect(await tk.kernel.sites.list()).toEqual([{ id: 1, name: new URL(tk.url).host, domain: null, aliases: [], timezone: 'Europe/Vienna' }]);
      expect(await tk.kernel.options.get('kept')).toBe('yes');
      expect(await tk.kernel.sites.roles.all()).toEqual([]);
      // Any host goes to the first site while it has no domain: as before sites.
      expect(await tk.kernel.sites.forHost('anything.example')).toMatchObject({ id: 1 });
    } finally {
      await tk.close();
    }
  });
});
