import { ManualClock } from '../../core/clock';
import { SVC_BIN, ensureBuilt, runScript } from '../helpers/dist';
import type { HttpClient } from '../helpers/http-client';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';
import { count, pageview, track } from '../../plugins/tracking/test/helpers';

/**
 * A burst of failed sign-ins must leave the database as it found it: no
 * transaction held open on the shared connection, so tracking, REST writes
 * and the `svc` command go on working (README, "Limits").
 */
describe('a burst of failed sign-ins', () => {
  const clock = new ManualClock('2025-03-10T12:00:00Z');
  let database: TestDatabase;
  let tk: TestKernel;
  let admin: HttpClient;
  let nonce: string;
  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
    tk = await createTestKernel({ plugins: ['tracking'], clock, database });
    admin = await tk.signedIn();
    nonce = await tk.nonce(admin);
    expect((await track(tk, pageview('https://site.example/warm-up', 'warm'))).status).toBe(200);
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, n) => tk.client().post('/svc-admin/login', { form: { log: n % 2 ? 'admin' : `nobody${n}`, pwd: `wrong ${n}` } })),
    );
    expect(burst.every((r) => r.status === 401 || r.status === 429)).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await tk?.close();
    await database?.drop();
  });

  it('records the next tracking hit within a second', async () => {
    const res = await tk.client().post(`${tk.api}/track`, {
      json: JSON.stringify(pageview('https://site.example/after-burst', 'after')),
      headers: { 'x-forwarded-for': '203.0.113.9' },
      signal: AbortSignal.timeout(1000),
    });
    expect(res.status).toBe(200);
    expect(await count(tk, 'statistics', 'uid = ?', ['after'])).toBe(1);
  });

  it('keeps a goal created over REST across a restart', async () => {
    const res = await admin.post(`${tk.api}/goals`, {
      json: { title: 'After the burst', type: 'clicks', status: 'active', selector: '#kept' },
      headers: { 'x-svc-nonce': nonce },
    });
    expect(res.status).toBe(200);
    await tk.close();
    tk = await createTestKernel({ plugins: ['tracking'], clock, database });
    const db = tk.kernel.db;
    const goals = await db.select<{ title: string }>(`SELECT title FROM ${db.quote(db.table('goals'))} WHERE title = ?`, ['After the burst']);
    expect(goals).toHaveLength(1);
  });

  it('lets `svc option get` run beside the server', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, n) => tk.client().post('/svc-admin/login', { form: { log: 'admin', pwd: `again ${n}` } })));
    const run = await runScript(SVC_BIN, ['option', 'get', 'privacy_level'], {
      env: { SVC_DATABASE_URL: database.url, SVC_DATA_DIR: tk.dataDir, SVC_PLUGINS: 'tracking', SVC_ADMIN_USER: 'admin', SVC_ADMIN_PASSWORD: 'correct horse battery' },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).not.toBe('');
  }, 60_000);
});
