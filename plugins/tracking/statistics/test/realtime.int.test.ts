import { NOW, insertPageview, insertSession } from '../../../../core/statistics/test/traffic';
import { type StoryKernel, startStoryKernel } from '../../../story/test/support';

/** Seconds since the epoch of the test clock's minute: "now" is 30 s into it. */
const T = Date.parse(NOW) / 1000;
const GOOGLE = 'https://www.google.com/';

describe('realtime data: the live visitors, pageviews per minute and top lists', () => {
  let k: StoryKernel;
  const sessions = new Map<string, number>();
  /** A hit of `uid` `ago` seconds before now, in one session per uid with its referrer and city (-1 NL, -2 DE, -3 US). */
  const hit = async (uid: string, ago: number, url: string, opts: { top?: number; type?: string; referrer?: string; city?: number } = {}) => {
    const db = k.tk.kernel.db;
    const time = k.clock.unix() - ago;
    if (!sessions.has(uid)) {
      const id = await insertSession(db, uid, time);
      await db.execute(`UPDATE ${db.quote(db.table('sessions'))} SET referrer = ?, city_code = ? WHERE ID = ?`, [opts.referrer ?? '', opts.city ?? -1, id]);
      sessions.set(uid, id);
    }
    await insertPageview(db, sessions.get(uid)!, uid, time, { url, top: opts.top ?? 0, type: opts.type });
  };
  const realtime = async () => {
    const res = await k.admin.get(`${k.tk.api}/data/realtime`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const perMinute = (counts: Record<number, number>, first: number) =>
    Array.from({ length: 30 }, (_, i) => ({ minute: first + i * 60, pageviews: counts[i] ?? 0 }));

  beforeAll(async () => {
    k = await startStoryKernel();
    k.clock.set(NOW);
    k.clock.advance(30);
    await hit('live-a', 20, '/', { referrer: GOOGLE, city: -1 });
    await hit('live-a', 100, '/pricing', { top: 60 });
    await hit('live-b', 250, '/', { city: -2 });
    await hit('live-b', 5, '/pricing');
    await hit('live-b', 10, '/gone', { type: '404' });
    await hit('live-c', 600, '/blog', { top: 400, referrer: 'https://t.co/', city: -3 });
    await hit('live-g', 30, '/', { referrer: GOOGLE, city: -1 });
    await hit('gone-d', 900, '/', { top: 10, referrer: GOOGLE, city: -1 });
    await hit('gone-f', 1770, '/old');
    await hit('gone-e', 1860, '/older');
  });
  afterAll(() => k.close());

  it('counts the live visitors and ranks what they see, 404 hits left out', async () => {
    expect(await realtime()).toEqual({
      visitors: 4,
      pageviews_per_minute: perMinute({ 0: 1, 14: 1, 19: 1, 25: 1, 27: 1, 29: 3 }, T - 29 * 60),
      top_pages: [
        { page_url: '/', visitors: 3 },
        { page_url: '/pricing', visitors: 2 },
        { page_url: '/blog', visitors: 1 },
      ],
      top_referrers: [
        { referrer: GOOGLE, visitors: 2 },
        { referrer: '', visitors: 1 },
        { referrer: 'https://t.co/', visitors: 1 },
      ],
      top_countries: [
        { country: 'NL', visitors: 2 },
        { country: 'DE', visitors: 1 },
        { country: 'US', visitors: 1 },
      ],
    });
  });

  it('answers a share session of the statistics tab, and refuses a link without it', async () => {
    const shared = await k.share({ shared_tabs: ['statistics'] });
    const { client: viewer, res: page } = await k.visit(shared.url);
    // The viewer stays on the shared tab: the link to the live page is for signed-in people (the browser test follows it).
    expect([page.status, page.text.includes('id="svc-stats"'), page.text.includes('data-live-link')]).toEqual([200, true, false]);
    const res = await k.viewerGet(viewer, shared.token, '/data/realtime');
    expect(res.status).toBe(200);
    expect(res.body.data.visitors).toBe(4);
    const other = await k.share({ shared_tabs: ['sources'] });
    const refused = await k.viewerGet((await k.visit(other.url)).client, other.token, '/data/realtime');
    expect([refused.status, refused.body.code]).toEqual([403, 'svc_share_forbidden']);
  });

  it('moves with the clock: five minutes on, nobody is live and the minutes shift', async () => {
    k.clock.advance(300);
    expect(await realtime()).toEqual({
      visitors: 0,
      pageviews_per_minute: perMinute({ 9: 1, 14: 1, 20: 1, 22: 1, 24: 3 }, T + 300 - 29 * 60),
      top_pages: [],
      top_referrers: [],
      top_countries: [],
    });
  });
});
