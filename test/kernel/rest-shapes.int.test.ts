import { Kernel } from '../../core/kernel';
import { SvcError, tooManyRequests } from '../../core/errors';
import { ok } from '../../core/http/envelope';
import { RestResponse } from '../../core/http/rest-types';
import { definePlugin } from '../../core/plugins/manifest';
import type { HttpClient } from '../helpers/http-client';
import { createTestDatabase } from '../helpers/test-db';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const shapes = definePlugin({
  name: 'shapes',
  tier: 'free',
  register(ctx) {
    const route = (method: 'GET' | 'POST', path: string, handler: () => unknown) =>
      ctx.rest.route({ method, path: `/shapes${path}`, capability: 'view_svc_statistics', handler });
    route('GET', '/data', () => ok({ visitors: 3 }));
    route('GET', '/coded', () => {
      throw new SvcError('svc_shapes_gone', 'That shape is gone.', 410);
    });
    route('GET', '/limited', () => {
      throw tooManyRequests('Slow down.', 'svc_shapes_rate_limited', 42);
    });
    route('GET', '/crash', () => {
      throw new Error('secret internals at /srv/svc/core/x.ts:1');
    });
    route('GET', '/created', () => new RestResponse(201, { id: 1 }, { Location: '/shapes/1' }));
    route('GET', '/empty', () => new RestResponse(204, null));
    route('POST', '/echo', () => ok('posted'));
    ctx.rest.route({ method: 'GET', path: '/shapes/ip', capability: null, handler: ({ ip }) => ({ ip }) });
    ctx.rest.route({ method: 'GET', path: '/shapes/guarded', capability: null, meta: { tab: 'sales' }, handler: () => 'never' });
    ctx.hooks.addFilter('svc_rest_pre_dispatch', (denial, request) =>
      request.route.meta.tab === 'sales' ? new SvcError('svc_shapes_denied', 'Not on this link.', 403) : denial,
    );
  },
});

describe('REST envelope and error shapes', () => {
  let tk: TestKernel;
  let basic: HttpClient;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [shapes], env: { SVC_TRUST_PROXY: 'loopback' } });
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    basic = tk.client().withBasic('admin', (await tk.kernel.appPasswords.create(admin, 'shapes')).password);
  });
  afterAll(() => tk?.close());

  it('wraps data in the success envelope', async () => {
    const res = await basic.get(`${tk.api}/shapes/data`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ data: { visitors: 3 }, request_success: true, success: true });
  });

  it('maps coded errors to their status and { success, code, message }', async () => {
    const gone = await basic.get(`${tk.api}/shapes/coded`);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ success: false, code: 'svc_shapes_gone', message: 'That shape is gone.' });
    const limited = await basic.get(`${tk.api}/shapes/limited`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('42');
    expect(limited.body).toEqual({ success: false, code: 'svc_shapes_rate_limited', message: 'Slow down.', data: { retry_after: 42 } });
  });

  it('answers an opaque 500 for unexpected failures and logs the cause', async () => {
    const res = await basic.get(`${tk.api}/shapes/crash`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, code: 'svc_internal_error', message: expect.any(String) });
    expect(res.text).not.toContain('secret internals');
    expect(tk.logs.some((l) => l.level === 50 && JSON.stringify(l).includes('secret internals'))).toBe(true);
  });

  it('passes explicit statuses and headers through', async () => {
    const created = await basic.get(`${tk.api}/shapes/created`);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/shapes/1');
    const empty = await basic.get(`${tk.api}/shapes/empty`);
    expect(empty.status).toBe(204);
    expect(empty.text).toBe('');
  });

  it('answers 404 JSON for unknown paths and methods, and lets svc_rest_pre_dispatch refuse', async () => {
    for (const res of [await basic.get(`${tk.api}/shapes/nothing`), await basic.post(`${tk.api}/shapes/data`, { json: {} }), await basic.get(`${tk.url}/wp-json/other/v1/x`)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'svc_no_route', message: expect.any(String) });
    }
    const denied = await tk.client().get(`${tk.api}/shapes/guarded`);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ success: false, code: 'svc_shapes_denied', message: 'Not on this link.' });
  });

  it('answers 400 to malformed JSON and 415 to unsupported encodings; the non-REST 404 is plain', async () => {
    const bad = await basic.post(`${tk.api}/shapes/echo`, { raw: '{"a":1,,}', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, code: 'svc_invalid_json', message: 'The request body is not valid JSON.' });
    const encoded = await basic.post(`${tk.api}/shapes/echo`, { raw: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'br-nope' } });
    expect(encoded.status).toBe(415);
    const plain = await tk.client().get('/definitely/not/here');
    expect(plain.status).toBe(404);
    expect(plain.headers.get('content-type')).toContain('text/plain');
  });

  it('takes the client address from X-Forwarded-For only behind a trusted proxy (SVC_TRUST_PROXY)', async () => {
    const res = await tk.client().get(`${tk.api}/shapes/ip`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.body).toEqual({ ip: '203.0.113.9' });
  });

  it('refuses an unusable SVC_TRUST_PROXY at boot with a coded error', async () => {
    const database = await createTestDatabase();
    try {
      await expect(Kernel.boot({ env: { SVC_DATABASE_URL: database.url, SVC_TRUST_PROXY: 'not-an-address' }, announce: () => undefined })).rejects.toMatchObject({
        code: 'SVC_ERR_CONFIG',
        message: expect.stringMatching(/^SVC_TRUST_PROXY: /),
      });
    } finally {
      await database.drop();
    }
  });
});
