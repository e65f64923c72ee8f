import type { HttpClient, HttpResponse } from '../helpers/http-client';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const nonceOf = (html: string) => /name="_svc_nonce" value="([a-f0-9]+)"/.exec(html)![1]!;

/** Posts an admin form with a fresh form nonce of `page`. */
async function submit(client: HttpClient, page: string, form: Record<string, string>): Promise<HttpResponse<string>> {
  const nonce = nonceOf((await client.get(page)).text);
  return client.post(page, { form: { _svc_nonce: nonce, ...form } });
}

/** The text of the field error next to `field` (by its id suffix), or null. */
function fieldError(html: string, id: string): string | null {
  const match = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html);
  return match ? match[1]!.replace(/&#39;/g, "'") : null;
}

describe('your own password on the Account page', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel();
  });
  afterAll(() => tk?.close());

  it('shows every problem at once next to its field and changes nothing', async () => {
    const client = await tk.signedIn();
    const res = await submit(client, '/svc-admin/account', { action: 'password', current_password: '', new_password: 'short', new_password_again: 'other' });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, 'field-current_password')).toBe('Type your current password.');
    expect(fieldError(res.text, 'field-new_password')).toBe('Use at least 8 characters.');
    expect(res.text).toContain('Your password was not changed');
    const mismatch = await submit(client, '/svc-admin/account', { action: 'password', current_password: tk.admin.password, new_password: 'a long new one', new_password_again: 'a long new two' });
    expect(fieldError(mismatch.text, 'field-new_password_again')).toBe('The two passwords are not the same.');
    expect(await tk.kernel.users.authenticate('admin', tk.admin.password)).not.toBeNull();
  });

  it('needs the right current password, then keeps this sign-in and ends the others', async () => {
    const client = await tk.signedIn();
    const elsewhere = await tk.signedIn();
    const wrong = await submit(client, '/svc-admin/account', { action: 'password', current_password: 'not my password', new_password: 'brand new secret', new_password_again: 'brand new secret' });
    expect(wrong.status).toBe(400);
    expect(fieldError(wrong.text, 'field-current_password')).toBe('That is not your current password.');

    const done = await submit(client, '/svc-admin/account', { action: 'password', current_password: tk.admin.password, new_password: 'brand new secret', new_password_again: 'brand new secret' });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/svc-admin/account?done=password');
    const after = await client.get('/svc-admin/account?done=password');
    expect(after.status).toBe(200);
    expect(after.text).toContain('Your password was changed.');
    expect((await elsewhere.get('/svc-admin/account')).status).toBe(302);
    expect(await tk.kernel.users.authenticate('admin', tk.admin.password)).toBeNull();
    expect(await tk.signedIn('admin', 'brand new secret')).toBeTruthy();
    await tk.kernel.users.setPassword((await tk.kernel.users.findByLogin('admin'))!.id, tk.admin.password);
  });

  it('counts wrong current passwords like failed sign-ins, also in a burst', async () => {
    await tk.kernel.users.create({ login: 'guesser', role: 'editor', password: 'guesser-password' });
    const client = await tk.signedIn('guesser', 'guesser-password');
    const nonce = nonceOf((await client.get('/svc-admin/account')).text);
    const guess = (n: number) =>
      client.post('/svc-admin/account', { form: { _svc_nonce: nonce, action: 'password', current_password: `guess ${n}`, new_password: 'whatever long', new_password_again: 'whatever long' } });
    const burst = await Promise.all(Array.from({ length: 8 }, (_, n) => guess(n)));
    expect(burst.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const refused = await guess(99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fieldError(refused.text, 'field-current_password')).toMatch(/^Too many wrong passwords\. Try again in \d+ minutes\.$/);
    // Even the right password waits now; the sign-in form shares the count.
    const right = await client.post('/svc-admin/account', { form: { _svc_nonce: nonce, action: 'password', current_password: 'guesser-password', new_password: 'whatever long', new_password_again: 'whatever long' } });
    expect(right.status).toBe(429);
    expect(await tk.kernel.users.authenticate('guesser', 'guesser-password')).not.toBeNull();
    expect((await tk.client().post('/svc-admin/login', { form: { log: 'guesser', pwd: 'guesser-password' } })).status).toBe(429);
  });
});

describe('the Users page', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  const page = '/svc-admin/users';
  beforeAll(async () => {
    tk = await createTestKernel();
    admin = await tk.signedIn();
  });
  afterAll(() => tk?.close());

  it('is for administrators only and in their menu', async () => {
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'ed-password' });
    const editor = await tk.signedIn('ed', 'ed-password');
    expect((await editor.get(page)).status).toBe(403);
    expect((await editor.get('/svc-admin/account')).text).not.toContain('href="/svc-admin/users"');
    const list = await admin.get(page);
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/svc-admin/users"');
    expect(list.text).toMatch(/data-login="admin"[\s\S]*data-login="ed"/);
  });

  it('refuses a bad new user with every problem at once and adds nobody', async () => {
    await admin.get(page);
    const before = (await tk.kernel.users.list()).length;
    const res = await submit(admin, page, { action: 'add', login: '', email: 'not-an-address', role: 'emperor', password: 'short', password_again: 'short' });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, 'user-login')).toBe('Give the person a user name.');
    expect(fieldError(res.text, 'user-role')).toBe('Choose a role.');
    expect(fieldError(res.text, 'user-password')).toBe('Use at least 8 characters.');
    const taken = await submit(admin, page, { action: 'add', login: 'ed', email: '', role: 'editor', password: 'long enough', password_again: 'long enough' });
    expect(taken.status).toBe(409);
    expect(fieldError(taken.text, 'user-login')).toBe('Someone already has this user name.');
    const email = await submit(admin, page, { action: 'add', login: 'new', email: 'nope', role: 'editor', password: 'long enough', password_again: 'long enough' });
    expect(fieldError(email.text, 'user-email')).toBe('This is not an e-mail address.');
    expect((await tk.kernel.users.list()).length).toBe(before);
  });

  it('adds a person with a password svc makes, shown once', async () => {
    const res = await submit(admin, page, { action: 'add', login: 'zoe', email: 'zoe@example.org', role: 'editor', password: '', password_again: '' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const password = /data-testid="generated-password">([^<]+)</.exec(res.text)![1]!;
    expect(await tk.kernel.users.authenticate('zoe', password)).toMatchObject({ login: 'zoe', role: 'editor', email: 'zoe@example.org' });
    expect((await admin.get(page)).text).not.toContain(password);
  });

  it('changes a role, never your own', async () => {
    const zoe = (await tk.kernel.users.findByLogin('zoe'))!;
    const res = await submit(admin, page, { action: 'role', id: String(zoe.id), role: 'administrator' });
    expect(res.status).toBe(302);
    expect((await tk.kernel.users.findByLogin('zoe'))!.role).toBe('administrator');
    const me = (await tk.kernel.users.findByLogin('admin'))!;
    const own = await submit(admin, page, { action: 'role', id: String(me.id), role: 'editor' });
    expect(own.status).toBe(409);
    expect(own.text).toContain('You cannot change your own role');
    const bad = await submit(admin, page, { action: 'role', id: String(zoe.id), role: 'svc_viewer' });
    expect(bad.status).toBe(400);
    expect((await tk.kernel.users.findByLogin('zoe'))!.role).toBe('administrator');
  });

  it('sets a password for someone and ends their sign-ins', async () => {
    const ed = (await tk.kernel.users.findByLogin('ed'))!;
    const edSession = await tk.signedIn('ed', 'ed-password');
    const short = await submit(admin, page, { action: 'password', id: String(ed.id), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('The new password needs at least 8 characters.');
    const res = await submit(admin, page, { action: 'password', id: String(ed.id), password: 'ed-new-password' });
    expect(res.status).toBe(302);
    expect((await edSession.get('/svc-admin/account')).status).toBe(302);
    expect(await tk.kernel.users.authenticate('ed', 'ed-new-password')).not.toBeNull();
  });

  it('removes a person with their sign-ins and application passwords, never yourself', async () => {
    const ed = (await tk.kernel.users.findByLogin('ed'))!;
    const session = await tk.signedIn('ed', 'ed-new-password');
    const { password } = await tk.kernel.appPasswords.create(ed, 'script');
    const res = await submit(admin, page, { action: 'remove', id: String(ed.id) });
    expect(res.status).toBe(302);
    expect(await tk.kernel.users.findByLogin('ed')).toBeNull();
    expect((await session.get('/svc-admin/account')).status).toBe(302);
    expect((await tk.client().withBasic('ed', password).get(`${tk.api}/users/me/application-passwords`)).status).toBe(401);
    expect(await tk.kernel.appPasswords.list(ed.id)).toEqual([]);
    const me = (await tk.kernel.users.findByLogin('admin'))!;
    const own = await submit(admin, page, { action: 'remove', id: String(me.id) });
    expect(own.status).toBe(409);
    expect(await tk.kernel.users.findByLogin('admin')).not.toBeNull();
    const gone = await submit(admin, page, { action: 'remove', id: String(ed.id) });
    expect(gone.status).toBe(404);
  });
});

describe('the last administrator', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel();
  });
  afterAll(() => tk?.close());

  it('can be neither demoted nor removed', async () => {
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    await expect(tk.kernel.users.setRole(admin.id, 'editor')).rejects.toMatchObject({ status: 409, code: 'svc_last_administrator' });
    await expect(tk.kernel.accounts.remove(admin.id)).rejects.toMatchObject({ status: 409, code: 'svc_last_administrator' });
    expect((await tk.kernel.users.findById(admin.id))!.role).toBe('administrator');
  });

  it('stays when two administrators remove each other at the same moment', async () => {
    const other = await tk.kernel.users.create({ login: 'other-admin', role: 'administrator', password: 'other-password' });
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const results = await Promise.allSettled([tk.kernel.users.remove(admin.id), tk.kernel.users.remove(other.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(refused.reason).toMatchObject({ code: 'svc_last_administrator' });
    expect((await tk.kernel.users.list()).filter((u) => u.role === 'administrator')).toHaveLength(1);
  });

  it('stays when demotions race as well', async () => {
    const [remaining] = (await tk.kernel.users.list()).filter((u) => u.role === 'administrator');
    const second = await tk.kernel.users.create({ login: 'third-admin', role: 'administrator', password: 'third-password' });
    const results = await Promise.allSettled([tk.kernel.users.setRole(remaining!.id, 'editor'), tk.kernel.users.setRole(second.id, 'editor')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason).toMatchObject({ code: 'svc_last_administrator' });
    expect((await tk.kernel.users.list()).filter((u) => u.role === 'administrator')).toHaveLength(1);
  });
});
