import { definePlugin } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, GOOGLEBOT, count, pageview, setOptions, track } from './helpers';

const seenIps: string[] = [];
const extra = { blocked: [] as string[], roles: [] as string[] };
const probe = definePlugin({
  name: 'probe',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_visitor_ip', (ip) => {
      seenIps.push(ip);
      return ip;
    });
    ctx.hooks.addFilter('svc_ip_blocklist', (list) => [...list, ...extra.blocked]);
    ctx.hooks.addFilter('svc_roles_excluded_from_tracking', (roles) => [...roles, ...extra.roles]);
  },
});

describe('visitor IP and exclusions (tracking.md §5, §7)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [probe], env: { SVC_DEBUG: '1' } });
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  });
  afterAll(() => tk.close());

  const outcome = async (payload: Record<string, unknown>, headers: Record<string, string> = {}, client?: ReturnType<TestKernel['client']>) =>
    (await track(tk, payload, { headers, client })).body.outcome ?? 'recorded';

  it('resolves the visitor IP in the documented header order, preferring public addresses', async () => {
    const ip = async (headers: Record<string, string>) => {
      seenIps.length = 0;
      await tk.client().post(`${tk.api}/track`, { json: JSON.stringify(pageview('https://site.example/', 'ipcheck')), headers });
      return seenIps[0];
    };
    expect(await ip({ 'cf-connecting-ip': '198.51.100.7', 'x-forwarded-for': '8.8.8.8' })).toBe('8.8.8.8');
    expect(await ip({ 'cf-connecting-ip': '81.2.69.142', 'x-forwarded-for': '8.8.8.8' })).toBe('81.2.69.142');
    expect(await ip({ 'x-forwarded-for': '10.0.0.1, 8.8.4.4, 1.1.1.1' })).toBe('8.8.4.4');
    expect(await ip({ 'true-client-ip': 'junk', 'x-real-ip': '9.9.9.9' })).toBe('9.9.9.9');
    expect(await ip({ 'x-forwarded-for': '::ffff:8.8.8.8' })).toBe('8.8.8.8');
    expect(await ip({ 'x-forwarded-for': '2001:4860:4860::8888' })).toBe('2001:4860:4860::8888');
    expect(await ip({ 'x-forwarded-for': '192.168.1.5' })).toBe('192.168.1.5');
    expect(await ip({})).toBe('127.0.0.1');
  });

  it('drops hits from blocked IPs and CIDR ranges, IPv4 and IPv6, also added by svc_ip_blocklist', async () => {
    await setOptions(tk, { ip_blocklist: '203.0.113.9\n198.51.100.0/24\n2001:db8::/32' });
    expect(await outcome(pageview('https://site.example/', 'ip1'), { 'x-forwarded-for': '203.0.113.9' })).toBe('ip blocked');
    expect(await outcome(pageview('https://site.example/', 'ip1'), { 'x-forwarded-for': '198.51.100.200' })).toBe('ip blocked');
    expect(await outcome(pageview('https://site.example/', 'ip1'), { 'x-forwarded-for': '::ffff:198.51.100.1' })).toBe('ip blocked');
    expect(await outcome(pageview('https://site.example/', 'ip1'), { 'x-forwarded-for': '2001:db8:1::5' })).toBe('ip blocked');
    expect(await outcome(pageview('https://site.example/', 'ip1'), { 'x-forwarded-for': '198.51.101.1' })).toBe('recorded');
    extra.blocked = ['8.8.8.0/24'];
    expect(await outcome(pageview('https://site.example/', 'ip1'), { 'x-forwarded-for': '8.8.8.8' })).toBe('ip blocked');
    extra.blocked = [];
    expect(await count(tk, 'statistics', 'uid = ?', ['ip1'])).toBe(1);
  });

  it('lets the onboarding test hit through the IP block only with the matching nonce', async () => {
    await tk.kernel.transients.set('svc_onboarding_token', 'tok123', 3600);
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    expect(await outcome(pageview('https://site.example/?svc_test_hit=1&nonce=wrong', 'test1'), headers)).toBe('ip blocked');
    expect(await outcome(pageview('https://site.example/?svc_test_hit=1', 'test1'), headers)).toBe('ip blocked');
    expect(await outcome(pageview('https://site.example/?svc_test_hit=1&nonce=tok123', 'test1'), headers)).toBe('recorded');
    await tk.kernel.transients.delete('svc_onboarding_token');
    expect(await outcome(pageview('https://site.example/?svc_test_hit=1&nonce=tok123', 'test1'), headers)).toBe('ip blocked');
    await setOptions(tk, { ip_blocklist: '' });
  });

  it('applies custom block rules to URL, referrer and user agent; an invalid regex is logged and skipped', async () => {
    await setOptions(tk, { custom_block_rules: 'STAGING\n/^https:\\/\\/spam\\.[a-z]+\\//i\n/kiosk\\s*browser\\/\\d/i\n/([unclosed/' });
    expect(await outcome(pageview('https://site.example/staging/page/', 'rule'))).toBe('blocked by custom rule');
    expect(await outcome(pageview('https://site.example/', 'rule', { referrer_url: 'https://SPAM.example/x' }))).toBe('blocked by custom rule');
    expect(await outcome(pageview('https://site.example/', 'rule', { user_agent: `${CHROME} Kiosk Browser/2` }))).toBe('blocked by custom rule');
    expect(await outcome(pageview('https://site.example/fine/', 'rule'))).toBe('recorded');
    expect(tk.logs.some((l) => String(l.msg).startsWith('custom block rule skipped'))).toBe(true);
    expect(tk.logs.some((l) => l.msg === 'hit dropped: blocked by custom rule' && l.rule === 'STAGING')).toBe(true);
    await setOptions(tk, { custom_block_rules: '' });
  });

  it('drops referrer spam, bots and Do Not Track visitors when enabled', async () => {
    expect(await outcome(pageview('https://site.example/', 'spam', { referrer_url: 'https://semalt.com/' }))).toBe('referrer is spam');
    expect(await outcome(pageview('https://site.example/', 'spam', { referrer_url: 'http://www.buttons-for-website.com/x' }))).toBe('referrer is spam');
    expect(await outcome(pageview('https://site.example/', 'bot', { user_agent: GOOGLEBOT }))).toBe('bot');
    expect(await outcome(pageview('https://site.example/', 'dnt'), { dnt: '1' })).toBe('recorded');
    await setOptions(tk, { enable_do_not_track: true });
    expect(await outcome(pageview('https://site.example/', 'dnt2'), { dnt: '1' })).toBe('do not track');
    expect(await outcome(pageview('https://site.example/', 'dnt3'), { dnt: '0' })).toBe('recorded');
    await setOptions(tk, { enable_do_not_track: false });
    expect(await count(tk, 'statistics', 'uid IN (?, ?, ?)', ['spam', 'bot', 'dnt2'])).toBe(0);
  });

  it('excludes signed-in users whose role is blocked, extended by svc_roles_excluded_from_tracking', async () => {
    const admin = await tk.signedIn();
    const editor = await tk.signedIn('ed', 'editor-password');
    expect(await outcome(pageview('https://site.example/', 'role1'), {}, admin)).toBe('recorded');
    await setOptions(tk, { user_role_blocklist: ['administrator'] });
    expect(await outcome(pageview('https://site.example/', 'role2'), {}, admin)).toBe('excluded role');
    expect(await outcome(pageview('https://site.example/', 'role3'), {}, editor)).toBe('recorded');
    const viaBeacon = await admin.post('/svc/endpoint', { raw: JSON.stringify(pageview('https://site.example/', 'role2b')), headers: { 'content-type': 'text/plain' } });
    expect(viaBeacon.text).toBe('excluded role');
    const anonymousBeacon = await tk.client().post('/svc/endpoint', { raw: JSON.stringify(pageview('https://site.example/', 'role2c')), headers: { 'content-type': 'text/plain' } });
    expect(anonymousBeacon.status).toBe(200);
    expect(anonymousBeacon.text).toBe('');
    extra.roles = ['editor'];
    expect(await outcome(pageview('https://site.example/', 'role4'), {}, editor)).toBe('excluded role');
    expect(await outcome(pageview('https://site.example/', 'role5'))).toBe('recorded');
    extra.roles = [];
    await setOptions(tk, { user_role_blocklist: [] });
  });
});
