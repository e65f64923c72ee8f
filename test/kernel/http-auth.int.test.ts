import { definePlugin } from '../../core/plugins/manifest';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const probe = definePlugin({
  name: 'probe',
  tier: 'free',
  register(ctx) {
    ctx.rest.route({
      method: 'GET',
      path: '/probe/view',
      capability: 'view_svc_statistics',
      handler: ({ principal }) => ({ user: principal.user?.login, method: principal.method }),
    });
    ctx.rest.route({
      method: 'POST',
      path: '/probe/echo',
      capability: 'manage_options',
      handler: ({ body }) => ({ echo: body }),
    });
  },
});

describe('kernel HTTP and auth', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [probe] });
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  });
  afterAll(() => tk.close());

  it('answers 401 to anonymous callers of a protected route', async () => {
    const res = await tk.client().get(`${tk.api}/probe/view`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: 'svc_not_logged_in', message: expect.any(String) });
  });

  it('signs in with the login form, needs the nonce on REST, and signs out', async () => {
    const client = await tk.signedIn();
    const noNonce = await client.get(`${tk.api}/probe/view`);
    expect(noNonce.status).toBe(403);
    expect(noNonce.body.code).toBe('svc_invalid_nonce');
    const nonce = await tk.nonce(client);
    expect(nonce).toMatch(/^[a-f0-9]{20}$/);
    const ok = await client.get(`${tk.api}/probe/view`, { query: { svc_nonce: nonce } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ user: 'admin', method: 'session' });
    const viaHeader = await client.get(`${tk.api}/probe/view`, { headers: { 'x-svc-nonce': nonce } });
    expect(viaHeader.status).toBe(200);
    const wrong = await client.get(`${tk.api}/probe/view`, { query: { svc_nonce: 'a'.repeat(20) } });
    expect(wrong.status).toBe(403);

    const out = await client.post('/svc-admin/logout', { form: { _svc_nonce: 'x' } });
    expect(out.status).toBe(400);
    const page = await client.get('/svc-admin/login');
    expect(page.status).toBe(302);
    const adminNonce = /name="_svc_nonce" value="([a-f0-9]+)"/.exec((await client.get('/svc-admin/', { redirect: 'follow' })).text)?.[1];
    expect(adminNonce).toBeDefined();
    const logout = await client.post('/svc-admin/logout', { form: { _svc_nonce: adminNonce! } });
    expect(logout.status).toBe(302);
    expect((await client.get(`${tk.api}/probe/view`, { query: { svc_nonce: nonce } })).status).toBe(401);
  });

  it('refuses a wrong password and rate-limits repeated failures', async () => {
    const client = tk.client();
    const bad = await client.post('/svc-admin/login', { form: { log: 'ed', pwd: 'nope' } });
    expect(bad.status).toBe(401);
    for (let i = 0; i < 4; i++) await client.post('/svc-admin/login', { form: { log: 'ed', pwd: 'nope' } });
    const limited = await client.post('/svc-admin/login', { form: { log: 'ed', pwd: 'editor-password' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('accepts an application password over HTTP Basic without a nonce, and forgets a revoked one', async () => {
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const created = await tk.kernel.appPasswords.create(admin, 'ci');
    const basic = tk.client().withBasic('admin', created.password);
    const ok = await basic.post(`${tk.api}/probe/echo`, { json: { a: 1 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ echo: { a: 1 } });
    const wrong = await tk.client().withBasic('admin', 'abcd efgh ijkl mnop qrst uvwz').get(`${tk.api}/probe/view`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('svc_invalid_app_password');
    await tk.kernel.appPasswords.revoke(admin.id, created.uuid);
    expect((await basic.get(`${tk.api}/probe/view`)).status).toBe(401);
  });

  it('answers 403 when the capability is missing', async () => {
    // A fresh editor: 'ed' spent the sign-in budget above, which HTTP Basic shares.
    const editor = await tk.kernel.users.create({ login: 'ed2', role: 'editor', password: 'editor-password' });
    const { password } = await tk.kernel.appPasswords.create(editor, 'x');
    const basic = tk.client().withBasic('ed2', password);
    expect((await basic.get(`${tk.api}/probe/view`)).status).toBe(200);
    const res = await basic.post(`${tk.api}/probe/echo`, { json: {} });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, code: 'svc_forbidden', message: expect.any(String) });
  });

  it('answers 400 to malformed JSON, 413 to huge bodies and 404 JSON to unknown routes', async () => {
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const { password } = await tk.kernel.appPasswords.create(admin, 'json');
    const basic = tk.client().withBasic('admin', password);
    const bad = await basic.post(`${tk.api}/probe/echo`, { raw: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_json');
    const huge = await basic.post(`${tk.api}/probe/echo`, { json: { s: 'x'.repeat(2_000_000) } });
    expect(huge.status).toBe(413);
    const missing = await basic.get(`${tk.api}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, code: 'svc_no_route', message: expect.any(String) });
  });
});
