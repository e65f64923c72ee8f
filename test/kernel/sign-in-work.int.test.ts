import crypto from 'node:crypto';
import { PER_ADDRESS } from '../../core/auth/login-limiter';
import { ManualClock } from '../../core/clock';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

/**
 * Every password check costs the same work, one scrypt, whether the login
 * exists or not, so the time of an answer does not tell which logins exist.
 * Counted in scrypt calls, not in milliseconds.
 */
describe('the work of a password check', () => {
  const clock = new ManualClock('2025-03-10T12:00:00Z');
  let tk: TestKernel;
  let scrypt: jest.SpyInstance;
  beforeAll(async () => {
    tk = await createTestKernel({ clock });
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
    await tk.kernel.users.create({ login: 'robot', role: 'svc_viewer', password: '', system: true });
    const ed = (await tk.kernel.users.findByLogin('ed'))!;
    for (let i = 0; i < 20; i++) await tk.kernel.appPasswords.create(ed, `key ${i}`);
  });
  afterAll(() => tk?.close());
  beforeEach(() => {
    clock.advance(PER_ADDRESS.window);
    scrypt = jest.spyOn(crypto, 'scrypt');
  });
  afterEach(() => jest.restoreAllMocks());

  const signIn = (log: string, pwd: string) => tk.client().post('/svc-admin/login', { form: { log, pwd } });
  const basic = (login: string, password: string) => tk.client().withBasic(login, password).get(`${tk.api}/users/me/application-passwords`);

  it.each([
    ['a known login with a wrong password', 'ed', 'not the password', 401],
    ['an unknown login', 'nobody-here', 'not the password', 401],
    ['a system account', 'robot', 'not the password', 401],
    ['the right password', 'ed', 'editor-password', 302],
  ])('signing in with %s costs one scrypt', async (_what, log, pwd, status) => {
    expect((await signIn(log, pwd)).status).toBe(status);
    expect(scrypt).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a wrong application password of a person with 20', 'ed', 'abcd efgh ijkl mnop qrst uvwx yzAB CDEF'],
    ['an unknown login', 'nobody-here', 'abcd efgh ijkl mnop qrst uvwx yzAB CDEF'],
    ['a system account', 'robot', 'abcd efgh ijkl mnop qrst uvwx yzAB CDEF'],
    ['a password of another length', 'ed', 'short'],
    ['an old-format password nobody holds', 'ed', 'abcd efgh ijkl mnop qrst uvwx'],
  ])('HTTP Basic with %s costs one scrypt', async (_what, login, password) => {
    expect((await basic(login, password)).status).toBe(401);
    expect(scrypt).toHaveBeenCalledTimes(1);
  });
});
