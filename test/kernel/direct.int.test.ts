import { type Database, connectDatabase } from '../../core/db/database';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';

/** db.direct: the driver under sequelize for the hot path's fixed statements. */
describe('db.direct', () => {
  let database: TestDatabase;
  let db: Database;
  let table: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await connectDatabase(database.url, '');
    table = db.quote('direct_probe');
    const id = db.dialect === 'mysql' ? 'ID BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY' : 'ID INTEGER PRIMARY KEY AUTOINCREMENT';
    await db.execute(`CREATE TABLE ${table} (${id}, name VARCHAR(50) NOT NULL UNIQUE)`);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const names = async () => (await db.direct.all<{ name: string }>(`SELECT name FROM ${table} ORDER BY ID`, [])).map((r) => r.name);

  it('runs statements with their values apart from the SQL and reports ids and changed rows', async () => {
    const first = await db.direct.run(`INSERT INTO ${table} (name) VALUES (?)`, ["o'brien; DROP TABLE x"]);
    expect(first).toEqual({ lastId: expect.any(Number), changes: 1 });
    const [row] = await db.direct.all<{ ID: number; name: string }>(`SELECT ID, name FROM ${table} WHERE name = ?`, ["o'brien; DROP TABLE x"]);
    expect(Number(row!.ID)).toBe(first.lastId);
    expect((await db.direct.run(`UPDATE ${table} SET name = ? WHERE ID = ?`, ['renamed', first.lastId])).changes).toBe(1);
    expect(await db.select(`SELECT name FROM ${table}`)).toEqual([{ name: 'renamed' }]);
  });

  it('fails a statement that does not parse, every time it is asked, and keeps serving the others', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(db.direct.all(`SELEC name FROM ${table}`, [])).rejects.toThrow(/syntax/i);
      await expect(db.direct.transaction((s) => s.run(`INSERT INTO ${table} (nam) VALUES (?)`, ['x']))).rejects.toThrow();
    }
    expect(await names()).toEqual(['renamed']);
  });

  it('commits a transaction that resolves and rolls back one that throws, leaving nothing half-written', async () => {
    await db.direct.transaction(async (s) => {
      await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['kept']);
    });
    await expect(
      db.direct.transaction(async (s) => {
        await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['half']);
        await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['kept']);
      }),
    ).rejects.toThrow();
    expect(await names()).toEqual(['renamed', 'kept']);
  });

  it('shows a transaction to reads outside it only once committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.direct.transaction(async (s) => {
      await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['pending']);
      inserted();
      await held;
    });
    await written;
    expect(await names()).not.toContain('pending');
    release();
    await transaction;
    expect(await names()).toContain('pending');
  });

  it('runs concurrent transactions without mixing their statements', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.direct.transaction(async (s) => {
          await s.run(`INSERT INTO ${table} (name) VALUES (?)`, [`batch-${i}-a`]);
          if (i % 2 === 1) throw new Error('abandoned');
          await s.run(`INSERT INTO ${table} (name) VALUES (?)`, [`batch-${i}-b`]);
        }).catch(() => undefined),
      ),
    );
    const batches = (await names()).filter((n) => n.startsWith('batch-')).sort();
    expect(batches).toEqual(['batch-0-a', 'batch-0-b', 'batch-2-a', 'batch-2-b', 'batch-4-a', 'batch-4-b', 'batch-6-a', 'batch-6-b']);
  });

  (process.env.SVC_TEST_DB === 'mysql' ? it : it.skip)('fails a transaction whose connection the server drops, then works on a new connection', async () => {
    const transaction = db.direct.transaction(async (s) => {
      const [{ id } = { id: 0 }] = await s.all<{ id: number }>('SELECT CONNECTION_ID() AS id', []);
      await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['lost']);
      await db.execute(`KILL CONNECTION ${Number(id)}`);
      await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['lost-too']);
    });
    await expect(transaction).rejects.toThrow();
    await db.direct.transaction(async (s) => {
      await s.run(`INSERT INTO ${table} (name) VALUES (?)`, ['after']);
    });
    const all = await names();
    expect(all).not.toContain('lost');
    expect(all).toContain('after');
  });
});
