import type { HttpClient } from '../helpers/http-client';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

describe('REST: application passwords of the signed-in user', () => {
  let tk: TestKernel;
  let session: HttpClient;
  let nonce: string;
  const path = () => `${tk.api}/users/me/application-passwords`;
  const count = async (login: string) => (await tk.kernel.appPasswords.list((await tk.kernel.users.findByLogin(login))!.id)).length;

  beforeAll(async () => {
    tk = await createTestKernel();
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
    session = await tk.signedIn();
    nonce = await tk.nonce(session);
  });
  afterAll(() => tk?.close());

  it('answers 401 to anonymous callers', async () => {
    for (const res of [await tk.client().get(path()), await tk.client().post(path(), { json: { name: 'x' } }), await tk.client().delete(`${path()}/abc`)]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, code: 'svc_not_logged_in', message: expect.any(String) });
    }
  });

  it('needs the nonce from session callers', async () => {
    const res = await session.post(path(), { json: { name: 'no nonce' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('svc_invalid_nonce');
    expect((await session.get(path())).status).toBe(403);
    expect(await count('admin')).toBe(0);
  });

  it('creates one (201, secret once), lists it without the secret, and tracks its last use', async () => {
    const created = await session.post(path(), { json: { name: 'deploy bot' }, headers: { 'x-svc-nonce': nonce } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'deploy bot',
      created: tk.clock.unix(),
      last_used: null,
      last_ip: null,
      password: expect.stringMatching(/^([A-Za-z0-9]{4} ){7}[A-Za-z0-9]{4}$/),
    });
    const list = await session.get(path(), { query: { svc_nonce: nonce } });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ uuid: created.body.uuid, name: 'deploy bot', created: tk.clock.unix(), last_used: null, last_ip: null }]);
    expect(list.text).not.toContain(created.body.password.replace(/ /g, ''));

    const basic = tk.client().withBasic('admin', created.body.password);
    const viaBasic = await basic.get(path());
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body[0]).toMatchObject({ uuid: created.body.uuid, last_used: tk.clock.unix(), last_ip: '127.0.0.1' });
    const stored = await tk.kernel.db.select<{ password: string }>(`SELECT password FROM ${tk.kernel.db.quote(tk.kernel.db.table('application_passwords'))}`);
    expect(stored[0]!.password).toMatch(/^scrypt\$/);
  });

  it('refuses bad bodies with 400 and creates nothing', async () => {
    const before = await count('admin');
    const headers = { 'x-svc-nonce': nonce };
    const bodies: unknown[] = [{}, { name: '' }, { name: '   ' }, { name: 42 }, { name: ['a'] }, { name: 'x'.repeat(192) }, ['name'], 'name', null];
    for (const json of bodies) {
      const res = await session.post(path(), { json, headers });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'svc_invalid_app_password_name' });
    }
    const malformed = await session.post(path(), { raw: '{"name":', headers: { ...headers, 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('svc_invalid_json');
    const huge = await session.post(path(), { json: { name: 'x', pad: 'y'.repeat(10_000) }, headers });
    expect(huge.status).toBe(413);
    expect(await count('admin')).toBe(before);
  });

  it('lets any signed-in person manage their own, through HTTP Basic too', async () => {
    const edUser = (await tk.kernel.users.findByLogin('ed'))!;
    const first = await tk.kernel.appPasswords.create(edUser, 'first');
    const basic = tk.client().withBasic('ed', first.password);
    const made = await basic.post(path(), { json: { name: 'second' } });
    expect(made.status).toBe(201);
    expect((await basic.get(path())).body.map((p: { name: string }) => p.name)).toEqual(['first', 'second']);
    expect((await session.get(path(), { headers: { 'x-svc-nonce': nonce } })).body.map((p: { name: string }) => p.name)).toEqual(['deploy bot']);
  });

  it('revokes its own by uuid, 404 for unknown or someone else’s', async () => {
    const edUser = (await tk.kernel.users.findByLogin('ed'))!;
    const theirs = await tk.kernel.appPasswords.create(edUser, 'theirs');
    const headers = { 'x-svc-nonce': nonce };
    const foreign = await session.delete(`${path()}/${theirs.uuid}`, { headers });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('svc_app_password_not_found');
    expect((await tk.client().withBasic('ed', theirs.password).get(path())).status).toBe(200);

    const mine = (await session.get(path(), { headers })).body[0];
    expect((await session.delete(`${path()}/${mine.uuid}`)).status).toBe(403);
    const gone = await session.delete(`${path()}/${mine.uuid}`, { headers });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ deleted: true, uuid: mine.uuid });
    expect((await session.delete(`${path()}/${mine.uuid}`, { headers })).status).toBe(404);
    expect((await session.delete(`${path()}/not-a-uuid%27%20OR%201=1`, { headers })).status).toBe(404);
    expect(await count('admin')).toBe(0);
  });

  it('never gives the share-link viewer account an application password', async () => {
    const viewer = await tk.kernel.users.create({ login: 'svc_statistics_viewer', role: 'svc_viewer', password: '', system: true });
    await expect(tk.kernel.appPasswords.create(viewer, 'sneaky')).rejects.toMatchObject({ code: 'svc_app_passwords_disabled', status: 403 });
  });
});
