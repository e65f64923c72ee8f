import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

describe('sign-in sessions shared by two app nodes', () => {
  let database: TestDatabase;
  let a: TestKernel;
  let b: TestKernel;
  beforeAll(async () => {
    database = await createTestDatabase();
    a = await createTestKernel({ database });
    b = await createTestKernel({ database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('serves a browser signed in on one node from the other, nonces included, and signs it out everywhere', async () => {
    const client = await a.signedIn();
    const cookie = client.cookie('svc_session')!;
    expect(cookie).toBeTruthy();
    const onB = b.client();
    const page = await onB.get('/svc-admin/account', { headers: { cookie: `svc_session=${cookie}` } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in as <strong>admin</strong>');

    const nonce = await a.nonce(client);
    const viaB = await onB.get(`${b.api}/users/me/application-passwords`, { headers: { cookie: `svc_session=${cookie}`, 'x-svc-nonce': nonce } });
    expect(viaB.status).toBe(200);

    const adminNonce = /name="_svc_nonce" value="([a-f0-9]+)"/.exec(page.text)![1]!;
    const out = await onB.post('/svc-admin/logout', { form: { _svc_nonce: adminNonce }, headers: { cookie: `svc_session=${cookie}` } });
    expect(out.status).toBe(302);
    expect((await client.get('/svc-admin/account')).status).toBe(302);
    expect((await client.get(`${a.api}/users/me/application-passwords`, { headers: { 'x-svc-nonce': nonce } })).status).toBe(401);
  });

  it('ends every session of a user on every node', async () => {
    const first = await a.signedIn();
    const second = await b.signedIn();
    const admin = (await a.kernel.users.findByLogin('admin'))!;
    expect(await a.kernel.sessions.destroyForUser(admin.id)).toBeGreaterThanOrEqual(2);
    expect((await first.get('/svc-admin/account')).status).toBe(302);
    expect((await second.get('/svc-admin/account')).status).toBe(302);
  });
});
