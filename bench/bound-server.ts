import http from 'node:http';
import type sqlite3 from 'sqlite3';
import type { BenchDialect } from './databases';

/**
 * The bound for the tracking bench: a bare node:http server that reads each
 * hit's body, decodes it (as the REST transport does, twice when it is a JSON
 * string) and answers 200 once one prepared INSERT of the hit has run. No
 * validation, no sessions, no batching: what one Node process costs per hit
 * when it does nothing but store it.
 */

interface Store {
  insert(values: Array<string | number>): Promise<void>;
  count(): Promise<number>;
  close(): Promise<void>;
}

const COLUMNS = '(uid, page_url, time_on_page, time)';

async function mysqlStore(url: string): Promise<Store> {
  const mysql = await import('mysql2');
  const pool = mysql.createPool({ uri: url, connectionLimit: Number(process.env.SVC_DB_POOL_MAX || 20) }).promise();
  await pool.query('CREATE TABLE hits (ID BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, uid VARCHAR(64), page_url VARCHAR(255), time_on_page INT, time INT)');
  return {
    insert: async (values) => void (await pool.execute(`INSERT INTO hits ${COLUMNS} VALUES (?, ?, ?, ?)`, values)),
    count: async () => Number(((await pool.query('SELECT COUNT(*) AS n FROM hits'))[0] as Array<{ n: number }>)[0]!.n),
    close: () => pool.end(),
  };
}

async function sqliteStore(url: string): Promise<Store> {
  const { Database } = await import('sqlite3');
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new Database(url.replace(/^sqlite:/, ''), (err) => (err ? reject(err) : resolve(opened)));
  });
  const run = (sql: string) => new Promise<void>((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));
  await run('PRAGMA journal_mode=WAL');
  await run('PRAGMA synchronous=NORMAL');
  await run('CREATE TABLE hits (ID INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT, page_url TEXT, time_on_page INTEGER, time INTEGER)');
  const statement = db.prepare(`INSERT INTO hits ${COLUMNS} VALUES (?, ?, ?, ?)`);
  return {
    insert: (values) => new Promise((resolve, reject) => statement.run(values, (err: Error | null) => (err ? reject(err) : resolve()))),
    count: () =>
      new Promise((resolve, reject) => db.get('SELECT COUNT(*) AS n FROM hits', (err, row: { n: number }) => (err ? reject(err) : resolve(row.n)))),
    close: () => new Promise((resolve) => statement.finalize(() => db.close(() => resolve()))),
  };
}

function decode(text: string): Record<string, unknown> {
  let value: unknown = text;
  for (let depth = 0; typeof value === 'string' && depth < 2; depth++) value = JSON.parse(value);
  return value as Record<string, unknown>;
}

/** Starts the bound on a fresh database; `stored()` counts the rows. */
export async function startBound(dialect: BenchDialect, databaseUrl: string): Promise<{ url: string; stored(): Promise<number>; stop(): Promise<void> }> {
  const store = dialect === 'mysql' ? await mysqlStore(databaseUrl) : await sqliteStore(databaseUrl);
  const answer = '{"success":true}';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let hit: Record<string, unknown>;
      try {
        hit = decode(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const url = new URL(String(hit.url));
      store.insert([String(hit.uid), url.pathname, Number(hit.time_on_page) || 0, Math.floor(Date.now() / 1000)]).then(
        () => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': answer.length }).end(answer),
        () => res.writeHead(503).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/track`,
    stored: () => store.count(),
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    },
  };
}
