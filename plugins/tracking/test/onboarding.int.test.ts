import { type TestDatabase, createTestDatabase } from '../../../test/helpers/test-db';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, GOOGLEBOT, count, pageview, setOptions, track } from './helpers';

interface Onboarding {
  first_hit: { time: number; page_url: string } | null;
  snippet: string | null;
  track_url: string;
  drops: Array<{ reason: string; page_url: string; count: number }>;
}

describe('onboarding: the snippet, the first pageview and the hits that were dropped', () => {
  let tk: TestKernel;
  const state = async (): Promise<Onboarding> => {
    const client = await tk.signedIn();
    const res = await client.get(`${tk.api}/tracking/onboarding`, { headers: { 'x-svc-nonce': await tk.nonce(client) } });
    expect(res.status).toBe(200);
    return res.body.data as Onboarding;
  };
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
  });
  afterAll(() => tk?.close());

  it('needs a signed-in person who may see the statistics', async () => {
    expect((await tk.client().get(`${tk.api}/tracking/onboarding`)).status).toBe(401);
  });

  it('offers the snippet and waits while nothing was counted', async () => {
    expect(await state()).toEqual({ first_hit: null, snippet: `<script src="${tk.url}/svc/embed.js" async></script>`, track_url: `${tk.api}/track`, drops: [] });
    await setOptions(tk, { headless: true });
    expect((await state()).snippet).toBeNull();
    await setOptions(tk, { headless: false });
  });

  it('lists dropped hits with their reason', async () => {
    await track(tk, pageview('https://site.example/crawled', 'bot', { user_agent: GOOGLEBOT }), { headers: { 'user-agent': GOOGLEBOT } });
    await setOptions(tk, { enable_do_not_track: true, user_role_blocklist: ['administrator'] });
    await track(tk, pageview('https://site.example/private', 'dnt'), { headers: { 'user-agent': CHROME, dnt: '1' } });
    await track(tk, pageview('https://site.example/me', 'me'), { headers: { 'user-agent': CHROME }, client: await tk.signedIn() });
    await setOptions(tk, { enable_do_not_track: false, user_role_blocklist: [] });
    const drops = (await state()).drops;
    expect(drops.map((d) => [d.reason, d.page_url, d.count])).toEqual([
      ['excluded role', 'https://site.example/me', 1],
      ['do not track', 'https://site.example/private', 1],
      ['bot', 'https://site.example/crawled', 1],
    ]);
    expect(await count(tk, 'statistics')).toBe(0);
  });

  it('names the first pageview once one is counted', async () => {
    expect((await track(tk, pageview('https://site.example/hello', 'first'), { headers: { 'user-agent': CHROME } })).status).toBe(200);
    expect((await state()).first_hit).toEqual({ time: tk.clock.unix(), page_url: '/hello' });
  });
});

describe('a flood of dropped hits', () => {
  let database: TestDatabase;
  let tk: TestKernel;
  let stopped = false;
  beforeAll(async () => {
    database = await createTestDatabase();
    tk = await createTestKernel({ plugins: ['tracking'], database });
  });
  afterAll(async () => {
    if (!stopped) await tk?.close();
    await database?.drop();
  });

  it('costs a row per reason every few seconds, and every hit is counted once the node stops', async () => {
    const bots = Array.from({ length: 80 }, (_, i) => track(tk, pageview(`https://site.example/bot-${i}`, `bot${i}`, { user_agent: GOOGLEBOT }), { headers: { 'user-agent': GOOGLEBOT } }));
    expect((await Promise.all(bots)).every((r) => r.status === 200)).toBe(true);
    const table = tk.kernel.db.quote(tk.kernel.db.table('tracking_drops'));
    const [before] = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`);
    expect(Number(before!.n)).toBeLessThanOrEqual(1);
    await tk.close();
    stopped = true;
    const other = await createTestKernel({ plugins: ['tracking'], database });
    const [row] = await other.kernel.db.select<{ n: number; hits: number }>(`SELECT COUNT(*) AS n, SUM(count) AS hits FROM ${table}`);
    await other.close();
    expect(Number(row!.n)).toBeLessThanOrEqual(2);
    expect(Number(row!.hits)).toBe(80);
  });
});
