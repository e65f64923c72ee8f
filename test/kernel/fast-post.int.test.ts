import { Router } from 'express';
import express from 'express';
import { definePlugin } from '../../core/plugins/manifest';
import { SvcError } from '../../core/errors';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const echo = async (body: string, via: string) => {
  if (body === 'boom') throw new SvcError('probe_bad', 'bad body', 400);
  if (body === 'crash') throw new Error('secret detail');
  return { status: 200, json: { via, length: body.length } };
};

const probe = definePlugin({
  name: 'fast-probe',
  tier: 'free',
  register(ctx) {
    const router = Router();
    router.post('/', express.text({ type: () => true }), async (req, res) => {
      const answer = await echo(String(req.body), 'express');
      res.status(answer.status).json(answer.json);
    });
    ctx.http.mount('/probe/fast', router, { session: 'lazy' });
    ctx.http.fastPost({ path: '/probe/fast', limit: 1024, cors: true, types: ['text/plain'], handler: (req) => echo(req.body, 'fast') });
  },
});

describe('fast POST routes', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [probe], env: { SVC_ALLOWED_ORIGINS: 'https://site.example' } });
  });
  afterAll(() => tk.close());

  const post = (body: string, headers: Record<string, string> = {}) =>
    tk.client().post('/probe/fast?x=1', { raw: body, headers: { 'content-type': 'text/plain', ...headers } });

  it('serves anonymous posts before express, with the CORS headers', async () => {
    const res = await post('hello', { origin: 'https://site.example' });
    expect(res.body).toEqual({ via: 'fast', length: 5 });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toBe('Origin');
    const other = await post('hello', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('hands requests with a sign-in cookie, an encoded body or another content type to express', async () => {
    expect((await post('hello', { cookie: 'svc_session=abc' })).body.via).toBe('express');
    expect((await post('hello', { 'content-type': 'application/json' })).body.via).toBe('express');
  });

  it('answers 413 above the limit, coded errors as JSON and hides unexpected failures', async () => {
    const big = await post('x'.repeat(2000));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('svc_payload_too_large');
    expect((await post('boom')).body).toEqual({ success: false, code: 'probe_bad', message: 'bad body' });
    const crash = await post('crash');
    expect(crash.status).toBe(500);
    expect(crash.text).not.toContain('secret detail');
  });
});
