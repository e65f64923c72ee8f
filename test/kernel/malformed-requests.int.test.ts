import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

/** Requests svc cannot read answer a clear 4xx, never a 500. */
describe('malformed requests', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
  });
  afterAll(() => tk?.close());

  const raw = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${tk.url}${path}`, { method, headers, redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
  };

  it.each([
    ['GET', '/%E0%A4%A'],
    ['GET', '/svc-admin/%zz'],
    ['GET', '/svc-admin/login%'],
    ['POST', '/svc-admin/login/%C0'],
    ['GET', '/wp-json/svc/v1/goals/%zz'],
    ['GET', '/wp-json/svc/v1/%E0%A4%A/x'],
    ['GET', '/wp-json/%'],
    ['POST', '/svc/endpoint/%zz'],
    ['GET', '/svc/js/%zz.js'],
    ['GET', '/svc-dashboard/%zz/'],
  ])('answers %s %s with 400 svc_invalid_url_encoding', async (method, path) => {
    const res = await raw(method, path);
    expect(res.status).toBe(400);
    expect(res.type).toContain('application/json');
    expect(JSON.parse(res.text)).toEqual({ success: false, code: 'svc_invalid_url_encoding', message: expect.any(String) });
  });

  it('answers 401 to a Basic login with a NUL byte', async () => {
    for (const credentials of ['ad\0min:whatever', 'admin\0:abcd efgh', '\0:\0', `admin:abc\0${'x'.repeat(28)}`]) {
      const res = await raw('GET', '/wp-json/svc/v1/users/me/application-passwords', { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });
      expect([credentials, res.status]).toEqual([credentials, 401]);
      expect(JSON.parse(res.text).code).toBe('svc_invalid_app_password');
    }
  });

  it('answers 401 to a sign-in with a NUL byte in the login or password', async () => {
    for (const form of [{ log: 'ad\0min', pwd: 'x' }, { log: 'admin', pwd: 'a\0b' }]) {
      expect((await tk.client().post('/svc-admin/login', { form })).status).toBe(401);
    }
  });
});
