import { createHash } from 'node:crypto';
import { ManualClock } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, count, heartbeat, pageview, rows, setOptions, track } from './helpers';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const IP = '8.8.4.4';

describe('visitor identification (tracking.md §3.4)', () => {
  const clock = new ManualClock('2026-05-10T23:50:00Z');
  let tk: TestKernel;
  let second: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], clock });
  });
  afterAll(async () => {
    await second?.close();
    await tk.close();
  });

  const send = (payload: Record<string, unknown>, kernel = tk) => track(kernel, payload, { headers: { 'x-forwarded-for': IP, 'user-agent': CHROME } });

  it('uses the cookie uid in cookie mode, falling back when the client sends false', async () => {
    await send(pageview('https://site.example/', 'cookie-uid', { fingerprint: 'fp1' }));
    expect(await count(tk, 'statistics', 'uid = ?', ['cookie-uid'])).toBe(1);
    await send(pageview('https://site.example/', false as unknown as string, { fingerprint: 'fp-fallback' }));
    expect(await count(tk, 'statistics', 'uid = ?', ['fp-fallback'])).toBe(1);
  });

  it('hashes IP, user agent and the daily salt in private mode, drops the fingerprint, and matches heartbeats', async () => {
    await setOptions(tk, { privacy_level: 'private_mode' });
    await send(pageview('https://site.example/private/', 'ignored-uid', { fingerprint: 'ignored-fp' }));
    const salt = (await tk.kernel.options.get<{ date: string; salt: string }>('svc_rotating_salt'))!;
    expect(salt.date).toBe('2026-05-10');
    expect(salt.salt).toMatch(/^[0-9a-f]{64}$/);
    const uid = sha(IP + CHROME + salt.salt);
    expect(await count(tk, 'statistics', 'uid = ?', [uid])).toBe(1);
    expect(await count(tk, 'statistics', 'uid IN (?, ?)', ['ignored-uid', 'ignored-fp'])).toBe(0);
    const autoloaded = await tk.kernel.db.select<{ autoload: unknown }>(`SELECT autoload FROM ${tk.kernel.db.quote(tk.kernel.db.table('options'))} WHERE option_name = ?`, ['svc_rotating_salt']);
    expect(Number(autoloaded[0]!.autoload)).toBe(0);
    clock.advance(20);
    await send(heartbeat('https://site.example/private/', '', 20));
    expect((await rows(tk, 'statistics', 'uid = ?', [uid]))[0]!.time_on_page).toBe(20);
  });

  it('rotates the salt at the UTC date change, so the same visitor gets a new uid', async () => {
    clock.set('2026-05-11T00:00:05Z');
    await send(pageview('https://site.example/private/', 'x'));
    const salt = (await tk.kernel.options.get<{ date: string; salt: string }>('svc_rotating_salt'))!;
    expect(salt.date).toBe('2026-05-11');
    const uid = sha(IP + CHROME + salt.salt);
    const sessions = await rows(tk, 'sessions', 'uid = ?', [uid]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.first_time_visit).toBe(1);
  });

  it('agrees on one salt per day between app nodes', async () => {
    second = await createTestKernel({ plugins: ['tracking'], clock, database: tk.database });
    await second.kernel.options.set('privacy_level', 'private_mode');
    await send(pageview('https://site.example/node2/', 'x'), second);
    const salt = (await tk.kernel.options.get<{ salt: string }>('svc_rotating_salt'))!;
    expect(await count(tk, 'statistics', 'uid = ? AND page_url = ?', [sha(IP + CHROME + salt.salt), '/node2/'])).toBe(1);
  });

  it('uses the fingerprint in fingerprint mode', async () => {
    await setOptions(tk, { privacy_level: 'fingerprint' });
    await send(pageview('https://site.example/fp/', 'some-uid', { fingerprint: 'canvasfp42' }));
    expect(await count(tk, 'statistics', 'uid = ?', ['canvasfp42'])).toBe(1);
  });
});

describe('headless identification', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_HEADLESS_DOMAIN: 'https://site.example' } });
    await setOptions(tk, { privacy_level: 'private_mode' });
  });
  afterAll(() => tk.close());

  it('takes the uid from the payload even in private mode', async () => {
    await track(tk, pageview('https://site.example/', 'site-given-uid', { fingerprint: 'fp' }));
    expect(await count(tk, 'statistics', 'uid = ?', ['site-given-uid'])).toBe(1);
  });
});
