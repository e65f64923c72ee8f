import { definePlugin } from '../../core/plugins/manifest';
import { SvcError } from '../../core/errors';
import type { HotRequest } from '../../core/http/hot-routes';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const echo = async (req: HotRequest) => {
  const body = String(req.body);
  if (body === 'boom') throw new SvcError('probe_bad', 'bad body', 400);
  if (body === 'crash') throw new Error('secret detail');
  if (body === 'later') throw new SvcError('probe_later', 'come back later', 503, { retry_after: 30 });
  return { status: 200, json: { via: req.via === 'hot' ? 'fast' : 'express', length: body.length } };
};

const probe = definePlugin({
  name: 'fast-probe',
  tier: 'free',
  register(ctx) {
    ctx.http.hotRoute({
      path: '/probe/fast',
      limit: 1024,
      body: 'text',
      types: ['text/plain'],
      cors: { allows: (origin) => origin === 'https://site.example', credentials: true, methods: 'POST, OPTIONS', privateNetwork: false, maxAge: 60 },
      handler: echo,
    });
  },
});

describe('hot routes', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [probe] });
  });
  afterAll(() => tk.close());

  const post = (body: string, headers: Record<string, string> = {}) =>
    tk.client().post('/probe/fast?x=1', { raw: body, headers: { 'content-type': 'text/plain', ...headers } });

  it('serves anonymous posts before express, with the CORS headers and a request id', async () => {
    const res = await post('hello', { origin: 'https://site.example' });
    expect(res.body).toEqual({ via: 'fast', length: 5 });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const other = await post('hello', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('hands requests with a sign-in cookie, an encoded body or another content type to express, with the same CORS policy', async () => {
    expect((await post('hello', { cookie: 'svc_session=abc' })).body.via).toBe('express');
    const json = await post('hello', { 'content-type': 'application/json', origin: 'https://site.example' });
    expect(json.body.via).toBe('express');
    expect(json.headers.get('access-control-allow-origin')).toBe('https://site.example');
    const preflight = await tk.client().request('OPTIONS', '/probe/fast', { headers: { origin: 'https://site.example' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });

  it('answers 413 above the limit, coded errors as JSON with Retry-After, and hides unexpected failures', async () => {
    const big = await post('x'.repeat(2000));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('svc_payload_too_large');
    expect((await post('boom')).body).toEqual({ success: false, code: 'probe_bad', message: 'bad body' });
    for (const headers of [{}, { cookie: 'svc_session=abc' }] as Array<Record<string, string>>) {
      const later = await post('later', headers);
      expect(later.status).toBe(503);
      expect(later.headers.get('retry-after')).toBe('30');
    }
    const crash = await post('crash');
    expect(crash.status).toBe(500);
    expect(crash.text).not.toContain('secret detail');
  });
});
