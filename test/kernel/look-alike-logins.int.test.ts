import { ManualClock } from '../../core/clock';
import { PER_ADDRESS, PER_LOGIN } from '../../core/auth/login-limiter';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const LOOK_ALIKES = ['ＡＤＭＩＮ', 'ÁDMİN', 'Admin', 'ADMIN', 'admín'];

/** A login is compared exactly on both dialects; spellings that only look alike are other names that share one budget of guesses. */
describe('look-alike logins', () => {
  const clock = new ManualClock('2025-03-10T12:00:00Z');
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ clock });
  });
  afterAll(() => tk?.close());
  beforeEach(() => clock.advance(PER_ADDRESS.window));

  const signIn = (log: string, pwd: string) => tk.client().post('/svc-admin/login', { form: { log, pwd } });

  it('does not sign anyone in as admin with a look-alike of the login', async () => {
    expect((await signIn('admin', tk.admin.password)).status).toBe(302);
    for (const log of LOOK_ALIKES) expect([log, (await signIn(log, tk.admin.password)).status]).toEqual([log, 401]);
  });

  it('does not accept an application password with a look-alike of the login', async () => {
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const { password } = await tk.kernel.appPasswords.create(admin, 'look-alike probe');
    for (const log of LOOK_ALIKES.slice(0, 2)) {
      const res = await tk.client().withBasic(log, password).get(`${tk.api}/users/me/application-passwords`);
      expect([log, res.status]).toEqual([log, 401]);
    }
    expect((await tk.client().withBasic('admin', password).get(`${tk.api}/users/me/application-passwords`)).status).toBe(200);
  });

  it('refuses a new login that differs from a taken one only in case', async () => {
    await expect(tk.kernel.users.create({ login: 'Admin', role: 'editor', password: 'some password' })).rejects.toMatchObject({ code: 'svc_user_exists', status: 409 });
    await expect(tk.kernel.users.create({ login: 'ADMIN', role: 'editor', password: 'some password' })).rejects.toMatchObject({ code: 'svc_user_exists', status: 409 });
    expect(await tk.kernel.users.findByLogin('Admin')).toBeNull();
  });

  it('gives look-alike spellings no fresh guesses after a lockout', async () => {
    for (let i = 0; i < PER_LOGIN.max; i++) expect((await signIn('admin', `wrong ${i}`)).status).toBe(401);
    for (const log of LOOK_ALIKES) expect([log, (await signIn(log, 'another guess')).status]).toEqual([log, 429]);
  });
});
