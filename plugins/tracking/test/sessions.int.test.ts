import { ManualClock } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { IPHONE, count, heartbeat, pageview, rows, setOptions, track } from './helpers';

const START = Date.parse('2026-03-02T10:00:00Z') / 1000;

describe('hit types and sessions (tracking.md §3.1-3.2)', () => {
  let tk: TestKernel;
  const clock = new ManualClock(START * 1000);
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], clock });
  });
  afterAll(() => tk.close());

  it('creates a session and a pageview on the first hit, with the session fields', async () => {
    const res = await track(tk, pageview('https://shop.example/products/?color=red#top', 'visitor1', { referrer_url: 'https://news.example/story', page_id: 12, page_type: 'product' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['visitor1']);
    expect(stat).toMatchObject({ page_url: '/products/', parameters: 'color=red', fragment: 'top', page_id: 12, page_type: 'product', time: START, time_on_page: 0 });
    const [session] = await rows(tk, 'sessions', 'ID = ?', [stat!.session_id]);
    expect(session).toMatchObject({
      uid: 'visitor1',
      first_visited_url: '/products/',
      last_visited_url: '/products/',
      referrer: 'https://news.example/story',
      host: '',
      first_time_visit: 1,
      bounce: 1,
      time: START,
      last_time: START,
    });
    expect(Number(session!.browser_id)).toBeGreaterThan(0);
    expect(Number(session!.device_id)).toBeGreaterThan(0);
  });

  it('accumulates time on page for a heartbeat on the same URL only', async () => {
    clock.advance(15);
    await track(tk, heartbeat('https://shop.example/products/?color=red', 'visitor1', 15));
    clock.advance(15);
    await track(tk, heartbeat('https://shop.example/products/?color=red', 'visitor1', 15));
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['visitor1']);
    expect(stat!.time_on_page).toBe(30);
    await track(tk, heartbeat('https://shop.example/other/', 'visitor1', 20));
    await track(tk, heartbeat('https://shop.example/products/?color=blue', 'visitor1', 20));
    expect((await rows(tk, 'statistics', 'uid = ?', ['visitor1']))[0]!.time_on_page).toBe(30);
    expect(await count(tk, 'statistics', 'uid = ?', ['visitor1'])).toBe(1);
  });

  it('records nothing for a heartbeat without a previous hit', async () => {
    const res = await track(tk, heartbeat('https://shop.example/', 'stranger', 10));
    expect(res.status).toBe(200);
    expect(await count(tk, 'statistics', 'uid = ?', ['stranger'])).toBe(0);
    expect(await count(tk, 'sessions', 'uid = ?', ['stranger'])).toBe(0);
  });

  it('keeps the session within 30 minutes and updates last URL and bounce', async () => {
    clock.set((START + 30 + 1800) * 1000);
    await track(tk, pageview('https://shop.example/cart/', 'visitor1'));
    const stats = await rows(tk, 'statistics', 'uid = ?', ['visitor1']);
    expect(stats).toHaveLength(2);
    expect(stats[1]!.session_id).toBe(stats[0]!.session_id);
    const [session] = await rows(tk, 'sessions', 'ID = ?', [stats[0]!.session_id]);
    expect(session).toMatchObject({ first_visited_url: '/products/', last_visited_url: '/cart/', bounce: 0, last_time: START + 1830 });
  });

  it('starts a new session one second after the window, as a returning visitor', async () => {
    clock.set((START + 1830 + 1801) * 1000);
    await track(tk, heartbeat('https://shop.example/cart/', 'visitor1', 5));
    expect(await count(tk, 'statistics', 'uid = ? AND time_on_page > 0 AND page_url = ?', ['visitor1', '/cart/'])).toBe(0);
    await track(tk, pageview('https://shop.example/', 'visitor1', { user_agent: IPHONE }));
    const sessions = await rows(tk, 'sessions', 'uid = ?', ['visitor1']);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).toMatchObject({ first_time_visit: 0, bounce: 1, first_visited_url: '/' });
    expect(sessions[1]!.device_id).not.toBe(sessions[0]!.device_id);
  });

  it('stores the host with domain filtering on, and flags a second domain', async () => {
    await setOptions(tk, { filtering_by_domain: true });
    await track(tk, pageview('https://blog.example/post/', 'visitor2'));
    const [session] = await rows(tk, 'sessions', 'uid = ?', ['visitor2']);
    expect(session!.host).toBe('blog.example');
    expect(await tk.kernel.options.get('svc_first_domain')).toBe('shop.example');
    expect(await tk.kernel.options.get('svc_is_multi_domain')).toBe(true);
  });
});
