import crypto from 'node:crypto';
import { ManualClock } from '../../core/clock';
import { PER_ADDRESS, PER_LOGIN } from '../../core/auth/login-limiter';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

/** README, "Limits": 5 password checks per login and address in 15 minutes, 30 per address in an hour. */
describe('the sign-in limit', () => {
  const clock = new ManualClock('2025-03-10T12:00:00Z');
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ clock });
    await tk.kernel.users.create({ login: 'target', role: 'editor', password: 'the-right-password' });
  });
  afterAll(() => tk?.close());
  afterEach(() => jest.restoreAllMocks());

  const signIn = (pwd: string, log = 'target') => tk.client().post('/svc-admin/login', { form: { log, pwd } });

  it('evaluates at most the documented number of 200 concurrent guesses, then refuses even the right password until the window ends', async () => {
    expect(PER_LOGIN.max).toBe(5);
    const scrypt = jest.spyOn(crypto, 'scrypt');
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => signIn(`guess number ${n}`)));
    const evaluated = answers.filter((r) => r.status === 401).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(PER_LOGIN.max);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(200 - evaluated);
    expect(scrypt.mock.calls.length).toBeLessThanOrEqual(PER_LOGIN.max);

    const refused = await signIn('the-right-password');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(PER_ADDRESS.window);
    clock.advance(wait - 1);
    expect((await signIn('the-right-password')).status).toBe(429);
    clock.advance(1);
    expect((await signIn('the-right-password')).status).toBe(302);
  });
});
