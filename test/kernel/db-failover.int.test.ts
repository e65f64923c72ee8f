import net from 'node:net';
import { type Database, connectDatabase } from '../../core/db/database';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';

const onMysql = process.env.SVC_TEST_DB === 'mysql' ? describe : describe.skip;

/** A local port that refuses connections: a server that is down. */
function refusingPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The same URL with a list of servers in place of its one server. */
const withServers = (url: string, servers: string[]) => url.replace(/@[^/]+\//, `@${servers.join(',')}/`);

onMysql('a database URL listing several servers', () => {
  let database: TestDatabase;
  let server: string;
  const opened: Database[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    server = /@([^/]+)\//.exec(database.url)![1]!;
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await database?.drop();
  });

  it('skips a server that is down and works on the next', async () => {
    const db = await connectDatabase(withServers(database.url, [`127.0.0.1:${await refusingPort()}`, server]), '');
    opened.push(db);
    await db.execute('CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20) NOT NULL)');
    await db.transaction((t) => db.execute('INSERT INTO notes (id, body) VALUES (1, ?)', ['kept'], t));
    expect(await db.select('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
  });

  it('refuses with SVC_ERR_DB_UNREACHABLE, naming the list without its password, when every server is down', async () => {
    const url = withServers(database.url.replace('root@', 'root:secret@'), [`127.0.0.1:${await refusingPort()}`, `127.0.0.1:${await refusingPort()}`]);
    const failed = connectDatabase(url, '');
    await expect(failed).rejects.toMatchObject({ code: 'SVC_ERR_DB_UNREACHABLE', status: 503 });
    await expect(failed).rejects.toThrow(/^cannot connect to the database mysql:\/\/root:\*\*\*@127\.0\.0\.1:\d+,127\.0\.0\.1:\d+\//);
  });
});
