import { type Database, connectDatabase } from '../../core/db/database';
import { retryTransaction } from '../../core/db/retry';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { within } from '../helpers/wait';

const onMysql = process.env.SVC_TEST_DB === 'mysql' ? describe : describe.skip;

/** Resolves for both sides once both have arrived. */
function meeting(): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const both = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === 2) open();
    return within(both, 10_000, 'the other transaction');
  };
}

onMysql('transactions on MariaDB/MySQL', () => {
  let database: TestDatabase;
  let db: Database;
  let admin: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await connectDatabase(database.url, '');
    admin = await connectDatabase(database.url, '');
    await db.execute('CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)');
    await db.execute('CREATE TABLE items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL)');
  });
  afterAll(async () => {
    await db?.close();
    await admin?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await db.execute('DELETE FROM counters');
    await db.execute('DELETE FROM items');
    await db.execute('INSERT INTO counters (id, n) VALUES (1, 0), (2, 0)');
  });

  const connectionId = async (t: Parameters<Parameters<Database['transaction']>[0]>[0]) =>
    Number((await db.select<{ id: number }>('SELECT CONNECTION_ID() AS id', [], t))[0]!.id);
  const names = async () => (await db.select<{ name: string }>('SELECT name FROM items ORDER BY id')).map((r) => r.name);

  it('runs the loser of a deadlock again from the start, so both transactions apply once', async () => {
    let runs = 0;
    const meet = meeting();
    const crossing = (first: number, second: number) => {
      let attempt = 0;
      return db.transaction(async (t) => {
        runs++;
        await db.execute('UPDATE counters SET n = n + 1 WHERE id = ?', [first], t);
        if (++attempt === 1) await meet();
        await db.execute('UPDATE counters SET n = n + 1 WHERE id = ?', [second], t);
      });
    };
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(runs).toBe(3);
    expect(await db.select('SELECT id, n FROM counters ORDER BY id')).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('runs a transaction again when its server goes away before the COMMIT; the cut-off run leaves nothing', async () => {
    let runs = 0;
    await db.transaction(async (t) => {
      runs++;
      await db.execute('INSERT INTO items (name) VALUES (?)', ['first'], t);
      if (runs === 1) await admin.execute(`KILL CONNECTION ${await connectionId(t)}`);
      await db.execute('INSERT INTO items (name) VALUES (?)', ['second'], t);
    });
    expect(runs).toBe(2);
    expect(await names()).toEqual(['first', 'second']);
  });

  it('does not run a transaction again when the answer to its COMMIT is lost', async () => {
    let runs = 0;
    const lost = retryTransaction((committing) =>
      db.sequelize.transaction(async (t) => {
        runs++;
        await db.execute('INSERT INTO items (name) VALUES (?)', ['maybe'], t);
        const id = await connectionId(t);
        committing();
        await admin.execute(`KILL CONNECTION ${id}`);
      }),
    );
    await expect(lost).rejects.toMatchObject({ code: 'SVC_ERR_DB_COMMIT_UNKNOWN', status: 503 });
    expect(runs).toBe(1);
  });

  it('passes other errors on at once, with nothing written', async () => {
    let runs = 0;
    const failing = db.transaction(async (t) => {
      runs++;
      await db.execute('INSERT INTO items (name) VALUES (?)', ['kept?'], t);
      await db.execute('INSERT INTO counters (id, n) VALUES (1, 0)', [], t);
    });
    await expect(failing).rejects.toThrow();
    expect(runs).toBe(1);
    expect(await names()).toEqual([]);
  });
});
