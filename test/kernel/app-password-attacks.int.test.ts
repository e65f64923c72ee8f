import crypto from 'node:crypto';
import { MAX_APP_PASSWORDS } from '../../core/auth/app-passwords';
import { PER_ADDRESS, PER_LOGIN } from '../../core/auth/login-limiter';
import { hashPassword } from '../../core/auth/passwords';
import { ManualClock } from '../../core/clock';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

/** README, "Limits": HTTP Basic shares the sign-in budget, a person holds at most 20 application passwords, a check costs one scrypt. */
describe('application passwords under attack', () => {
  const clock = new ManualClock('2025-03-10T12:00:00Z');
  let tk: TestKernel;
  const path = () => `${tk.api}/users/me/application-passwords`;
  const basic = (login: string, password: string) => tk.client().withBasic(login, password).get(path());
  const user = async (login: string) => (await tk.kernel.users.findByLogin(login))!;
  const table = () => tk.kernel.db.quote(tk.kernel.db.table('application_passwords'));

  beforeAll(async () => {
    tk = await createTestKernel({ clock });
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  });
  afterAll(() => tk?.close());
  beforeEach(() => clock.advance(PER_ADDRESS.window));
  afterEach(() => jest.restoreAllMocks());

  it('makes 32-character passwords whose first 8 characters are the stored public id', async () => {
    const created = await tk.kernel.appPasswords.create(await user('ed'), 'format');
    expect(created.password).toMatch(/^([A-Za-z0-9]{4} ){7}[A-Za-z0-9]{4}$/);
    const [row] = await tk.kernel.db.select<{ public_id: string }>(`SELECT public_id FROM ${table()} WHERE uuid = ?`, [created.uuid]);
    expect(row!.public_id).toBe(created.password.replace(/ /g, '').slice(0, 8));
    expect((await basic('ed', created.password)).status).toBe(200);
    await tk.kernel.appPasswords.revoke((await user('ed')).id, created.uuid);
  });

  it('counts failed Basic checks in the sign-in budget: 429 svc_too_many_attempts with Retry-After, shared with the sign-in form', async () => {
    const { password } = await tk.kernel.appPasswords.create(await user('ed'), 'budget');
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => basic('ed', `wrong guess ${n} padded to be long`)));
    const evaluated = answers.filter((r) => r.status === 401).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(PER_LOGIN.max);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(200 - evaluated);
    expect(refused[0]!.body).toEqual({ success: false, code: 'svc_too_many_attempts', message: expect.any(String), data: { retry_after: expect.any(Number) } });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The right application password waits too, and so does the sign-in form for that login.
    expect((await basic('ed', password)).status).toBe(429);
    expect((await tk.client().post('/svc-admin/login', { form: { log: 'ed', pwd: 'editor-password' } })).status).toBe(429);
    clock.advance(PER_ADDRESS.window);
    expect((await basic('ed', password)).status).toBe(200);
   }, 90_000);

  it('holds at most 20 application passwords per person, also when asked concurrently', async () => {
    const ed = await user('ed');
    await tk.kernel.appPasswords.revokeAll(ed.id);
    const session = await tk.signedIn('ed', 'editor-password');
    const nonce = await tk.nonce(session);
    const answers = await Promise.all(
      Array.from({ length: MAX_APP_PASSWORDS + 10 }, (_, n) => session.post(path(), { json: { name: `bot ${n}` }, headers: { 'x-svc-nonce': nonce } })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(MAX_APP_PASSWORDS);
    const over = answers.filter((r) => r.status !== 201);
    expect(over).toHaveLength(10);
    for (const res of over) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code: 'svc_too_many_app_passwords', message: expect.stringContaining('20') });
    }
    expect(await tk.kernel.appPasswords.list(ed.id)).toHaveLength(MAX_APP_PASSWORDS);
  });

  it('checks a wrong password of a person with 20 application passwords with one scrypt', async () => {
    expect(await tk.kernel.appPasswords.list((await user('ed')).id)).toHaveLength(MAX_APP_PASSWORDS);
    const [held] = await tk.kernel.db.select<{ public_id: string }>(`SELECT public_id FROM ${table()} WHERE user_id = ?`, [(await user('ed')).id]);
    const scrypt = jest.spyOn(crypto, 'scrypt');
    expect((await basic('ed', 'abcdefghijklmnopqrstuvwxyzABCDEF')).status).toBe(401);
    expect(scrypt).toHaveBeenCalledTimes(1);
    expect((await basic('ed', `${held!.public_id}${'x'.repeat(24)}`)).status).toBe(401);
    expect(scrypt).toHaveBeenCalledTimes(2);
  });

  it('accepts passwords made before public ids', async () => {
    const ed = await user('ed');
    await tk.kernel.appPasswords.revokeAll(ed.id);
    const legacy = 'Legacy2345678923456789ab';
    await tk.kernel.db.execute(`INSERT INTO ${table()} (uuid, user_id, name, password, created) VALUES (?, ?, ?, ?, ?)`, [
      crypto.randomUUID(),
      ed.id,
      'from before',
      await hashPassword(legacy),
      clock.unix(),
    ]);
    expect((await basic('ed', 'Lega cy23 4567 8923 4567 89ab')).status).toBe(200);
    expect((await basic('ed', 'Legacy2345678923456789ac')).status).toBe(401);
  });

  it('checks a valid credential once, then trusts it without scrypt until it is revoked', async () => {
    const ed = await user('ed');
    const created = await tk.kernel.appPasswords.create(ed, 'cached');
    const scrypt = jest.spyOn(crypto, 'scrypt');
    const first = await Promise.all(Array.from({ length: 20 }, () => basic('ed', created.password)));
    expect(first.every((r) => r.status === 200)).toBe(true);
    for (let i = 0; i < 10; i++) expect((await basic('ed', created.password)).status).toBe(200);
    expect(scrypt).toHaveBeenCalledTimes(1);
    await tk.kernel.appPasswords.revoke(ed.id, created.uuid);
    expect((await basic('ed', created.password)).status).toBe(401);
  });
});
