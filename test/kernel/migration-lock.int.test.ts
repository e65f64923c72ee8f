import { type Database, connectDatabase } from '../../core/db/database';
import { withMigrationLock } from '../../core/db/migration-lock';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';

describe('the migration lock (a row in svc_locks)', () => {
  let database: TestDatabase;
  let nodes: Database[];
  beforeAll(async () => {
    database = await createTestDatabase();
    nodes = await Promise.all([1, 2, 3].map(() => connectDatabase(database.url, 'lk_')));
    await nodes[0]!.execute('CREATE TABLE lk_counter (id INT PRIMARY KEY, n INT NOT NULL)');
    await nodes[0]!.execute('INSERT INTO lk_counter (id, n) VALUES (1, 0)');
  });
  afterAll(async () => {
    for (const db of nodes ?? []) await db.close();
    await database?.drop();
  });
  const locks = () => nodes[0]!.select<{ name: string; holder: string }>('SELECT name, holder FROM lk_svc_locks');

  it('lets one node at a time in: six read-modify-write rounds from three nodes lose no update', async () => {
    let inside = 0;
    let most = 0;
    const round = (db: Database) =>
      withMigrationLock(db, async () => {
        most = Math.max(most, ++inside);
        const [row] = await db.select<{ n: number }>('SELECT n FROM lk_counter WHERE id = 1');
        await db.select('SELECT 1');
        await db.execute('UPDATE lk_counter SET n = ? WHERE id = 1', [Number(row!.n) + 1]);
        inside--;
      });
    await Promise.all([...nodes, ...nodes].map(round));
    expect(most).toBe(1);
    expect(await nodes[0]!.select('SELECT n FROM lk_counter')).toEqual([{ n: 6 }]);
    expect(await locks()).toEqual([]);
  });

  it('takes over the lease of a node that died holding it', async () => {
    await nodes[0]!.execute('INSERT INTO lk_svc_locks (name, holder, expires) VALUES (?, ?, ?)', ['migrations', 'a-dead-node', Date.now() - 1]);
    await expect(withMigrationLock(nodes[1]!, async () => (await locks())[0]!.holder)).resolves.not.toBe('a-dead-node');
    expect(await locks()).toEqual([]);
  });

  it('lets go when the work throws', async () => {
    await expect(withMigrationLock(nodes[2]!, () => Promise.reject(new Error('bad step')))).rejects.toThrow('bad step');
    expect(await locks()).toEqual([]);
  });
});
