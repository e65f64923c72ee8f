import mysql from 'mysql2/promise';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { heartbeat, pageview, rows, track } from './helpers';

/**
 * The promise of tracking.md §4 (In svc) under a database outage: a hit
 * answered 200 is stored, whatever happens to the server's connections
 * while it is under way. The server drops every connection of this
 * database, again and again, while visitors send page views and heartbeats
 * in parallel — what a restart of MariaDB does to the app node.
 */
const onMysql = process.env.SVC_TEST_DB === 'mysql';

(onMysql ? describe : describe.skip)('hits while the database drops its connections (MariaDB/MySQL only)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
  });
  afterAll(() => tk.close());

  /** Kills every connection to the test database but the killer's own. */
  async function dropConnections(admin: mysql.Connection, database: string): Promise<number> {
    const [list] = await admin.query<mysql.RowDataPacket[]>('SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [database]);
    let killed = 0;
    for (const { ID } of list) {
      // A connection may have closed meanwhile.
      if (await admin.query(`KILL CONNECTION ${Number(ID)}`).then(() => true, () => false)) killed++;
    }
    return killed;
  }

  it('stores every hit answered 200, answers the others 503, and records again once the connections are back', async () => {
    const database = new URL(tk.database.url).pathname.slice(1);
    const admin = await mysql.createConnection(process.env.SVC_TEST_MYSQL_URL!);
    const answered = { pageviews: 0, seconds: 0 };
    /** Hits answered 503: their page views and seconds may or may not be stored. */
    const unavailable = { pageviews: 0, seconds: 0 };
    // Ten drops of every connection, 50 ms apart, while the visitors below are under way.
    let killed = 0;
    const killer = (async () => {
      for (let round = 0; round < 10; round++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        killed += await dropConnections(admin, database);
      }
    })();

    // A visitor opens a page until it is answered 200, then sends heartbeats for it.
    const visitor = async (n: number) => {
      const uid = `outage${n}`;
      const url = `https://site.example/page-${n % 7}/`;
      let open = false;
      for (let i = 0; i < 8; i++) {
        const seconds = 5 + i;
        const res = await track(tk, open ? heartbeat(url, uid, seconds) : pageview(url, uid), { headers: { 'x-forwarded-for': `81.2.69.${n}` } });
        if (res.status === 503) {
          expect(res.body.code).toBe('svc_tracking_unavailable');
          if (open) unavailable.seconds += seconds;
          else unavailable.pageviews++;
          continue;
        }
        expect(res.status).toBe(200);
        if (open) answered.seconds += seconds;
        else answered.pageviews++;
        open = true;
      }
    };
    await Promise.all([killer, ...Array.from({ length: 40 }, (_, n) => visitor(n))]);
    await admin.end();
    expect(killed).toBeGreaterThan(0);

    const stored = await rows<{ time_on_page: number }>(tk, 'statistics');
    const storedSeconds = stored.reduce((sum, r) => sum + Number(r.time_on_page), 0);
    // Nothing answered 200 is missing. A hit answered 503 may still be stored when the
    // connection dropped after its commit and before the answer: never more than those.
    expect(stored.length).toBeGreaterThanOrEqual(answered.pageviews);
    expect(stored.length).toBeLessThanOrEqual(answered.pageviews + unavailable.pageviews);
    expect(storedSeconds).toBeGreaterThanOrEqual(answered.seconds);
    expect(storedSeconds).toBeLessThanOrEqual(answered.seconds + unavailable.seconds);

    const after = await track(tk, pageview('https://site.example/after/', 'afteroutage'));
    expect(after.status).toBe(200);
    expect(await rows(tk, 'statistics', 'uid = ?', ['afteroutage'])).toHaveLength(1);
  });
});
