import { definePlugin } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { pageview, setOptions } from './helpers';

const seen: string[] = [];
const probe = definePlugin({
  name: 'probe',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_visitor_ip', (ip) => {
      seen.push(ip);
      return ip;
    });
  },
});

/** The visitor address a hit resolves to, and its outcome, over the REST endpoint and the beacon endpoint. */
async function resolve(tk: TestKernel, headers: Record<string, string>): Promise<{ rest: string; beacon: string; outcome: string }> {
  seen.length = 0;
  const rest = await tk.client().post(`${tk.api}/track`, { json: JSON.stringify(pageview('https://site.example/', 'proxy-check')), headers });
  const viaRest = seen[0]!;
  seen.length = 0;
  const beacon = await tk.client().post('/svc/endpoint', { raw: JSON.stringify(pageview('https://site.example/', 'proxy-check')), headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers } });
  expect([rest.status, beacon.status]).toEqual([200, 200]);
  return { rest: viaRest, beacon: seen[0]!, outcome: (rest.body as { outcome?: string }).outcome ?? 'recorded' };
}

/** README, "Running behind a reverse proxy": forwarded headers count only from the proxies SVC_TRUST_PROXY names. */
describe('the visitor address behind trusted proxies', () => {
  const spoofed = { 'cf-connecting-ip': '8.8.8.8', 'x-forwarded-for': '1.1.1.1, 81.2.69.142' };

  describe('without SVC_TRUST_PROXY (tracking.md §7)', () => {
    let tk: TestKernel;
    beforeAll(async () => {
      tk = await createTestKernel({ plugins: ['tracking'], inline: [probe], env: { SVC_DEBUG: '1' } });
      await setOptions(tk, { ip_blocklist: '81.2.69.142' });
    });
    afterAll(() => tk?.close());

    it('reads the headers in the documented order, so a client can claim any address', async () => {
      expect(await resolve(tk, spoofed)).toEqual({ rest: '8.8.8.8', beacon: '8.8.8.8', outcome: 'recorded' });
      expect(await resolve(tk, { 'x-forwarded-for': '81.2.69.142' })).toEqual({ rest: '81.2.69.142', beacon: '81.2.69.142', outcome: 'ip blocked' });
    });
  });

  describe('with SVC_TRUST_PROXY naming the proxy the hits come through', () => {
    let tk: TestKernel;
    beforeAll(async () => {
      tk = await createTestKernel({ plugins: ['tracking'], inline: [probe], env: { SVC_DEBUG: '1', SVC_TRUST_PROXY: '127.0.0.1/8, 10.0.0.0/8' } });
      await setOptions(tk, { ip_blocklist: '81.2.69.142' });
    });
    afterAll(() => tk?.close());

    it('takes the address the proxy saw (X-Forwarded-For from the right), so a blocked visitor cannot claim another', async () => {
      expect(await resolve(tk, spoofed)).toEqual({ rest: '81.2.69.142', beacon: '81.2.69.142', outcome: 'ip blocked' });
      expect(await resolve(tk, { 'x-forwarded-for': '81.2.69.142, 10.1.2.3' })).toEqual({ rest: '81.2.69.142', beacon: '81.2.69.142', outcome: 'ip blocked' });
      expect(await resolve(tk, { 'x-forwarded-for': '9.9.9.9' })).toEqual({ rest: '9.9.9.9', beacon: '9.9.9.9', outcome: 'recorded' });
    });

    it('takes the proxy itself when it forwards nothing', async () => {
      expect(await resolve(tk, {})).toEqual({ rest: '127.0.0.1', beacon: '127.0.0.1', outcome: 'recorded' });
    });
  });

  describe('with SVC_TRUST_PROXY naming other proxies', () => {
    let tk: TestKernel;
    beforeAll(async () => {
      tk = await createTestKernel({ plugins: ['tracking'], inline: [probe], env: { SVC_DEBUG: '1', SVC_TRUST_PROXY: '10.0.0.0/8' } });
      await setOptions(tk, { ip_blocklist: '127.0.0.1' });
    });
    afterAll(() => tk?.close());

    it('believes no forwarded header from anyone else: the connection is the visitor', async () => {
      expect(await resolve(tk, spoofed)).toEqual({ rest: '127.0.0.1', beacon: '127.0.0.1', outcome: 'ip blocked' });
      expect(await resolve(tk, { 'x-forwarded-for': '9.9.9.9', 'x-real-ip': '9.9.9.9' })).toEqual({ rest: '127.0.0.1', beacon: '127.0.0.1', outcome: 'ip blocked' });
    });
  });
});
