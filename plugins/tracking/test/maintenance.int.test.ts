import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { IPHONE, count, pageview, rows, track } from './helpers';

describe('lookups, junk browsers and transport status (tracking.md §2.3, §2.7)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
  });
  afterAll(() => tk.close());

  it('fills the lookup tables on first sight and keeps their ids in the object cache', async () => {
    await track(tk, pageview('https://site.example/', 'ua1'));
    await track(tk, pageview('https://site.example/', 'ua2', { user_agent: IPHONE }));
    await track(tk, pageview('https://site.example/', 'ua3', { user_agent: IPHONE }));
    expect((await rows(tk, 'browsers')).map((r) => r.name).sort()).toEqual(['Chrome', 'Mobile Safari']);
    expect((await rows(tk, 'devices')).map((r) => r.name).sort()).toEqual(['desktop', 'mobile']);
    expect((await rows(tk, 'platforms')).map((r) => r.name).sort()).toEqual(['Windows', 'iOS']);
    expect((await rows(tk, 'browser_versions')).map((r) => r.name).sort()).toEqual(['Chrome 124', 'Mobile Safari 17']);
    const cached = tk.kernel.cache.get<{ get(name: string): number | undefined }>('svc_browsers_all', 'svc');
    expect(cached?.get('Chrome')).toBe((await rows(tk, 'browsers', 'name = ?', ['Chrome']))[0]!.ID);
  });

  it('offers the pipeline to server-side integrations through the tracking service', async () => {
    const service = tk.kernel.services.get('tracking')!;
    const principal = { user: null, method: 'anonymous' as const, sessionId: null };
    const result = await service.track(pageview('https://site.example/server-side/', 'server'), { headers: { 'x-forwarded-for': '8.8.8.8' }, remoteAddress: '127.0.0.1', principal }, 1_700_000_000);
    expect(result).toMatchObject({ recorded: true, hitType: 'create', uid: 'server' });
    expect((await rows(tk, 'statistics', 'uid = ?', ['server']))[0]).toMatchObject({ page_url: '/server-side/', time: 1_700_000_000 });
    await expect(service.track({ url: 'nope' }, { headers: {}, remoteAddress: undefined, principal })).rejects.toMatchObject({ code: 'svc_invalid_url', status: 400 });
  });

  it('does not store browser names the parser cannot emit', async () => {
    await track(tk, pageview('https://site.example/', 'odd', { user_agent: 'Mozilla/5.0 (X11; Linux) Oakne Browser/9.1' }));
    const [session] = await rows(tk, 'sessions', 'uid = ?', ['odd']);
    expect(session!.browser_id).toBe(0);
    expect(Number(session!.device_id)).toBeGreaterThan(0);
  });

  it('removes junk browsers with their sessions and page views every week', async () => {
    const db = tk.kernel.db;
    const q = (t: string) => db.quote(db.table(t));
    const { id: junk } = await db.insert(`INSERT INTO ${q('browsers')} (name) VALUES (?)`, ['<script>Junk']);
    const { id: session } = await db.insert(`INSERT INTO ${q('sessions')} (uid, time, last_time, browser_id) VALUES (?, ?, ?, ?)`, ['junk', 1, 1, junk]);
    const { id: stat } = await db.insert(`INSERT INTO ${q('statistics')} (page_url, time, uid, session_id) VALUES (?, ?, ?, ?)`, ['/', 1, 'junk', session]);
    await db.execute(`INSERT INTO ${q('goal_statistics')} (statistic_id, goal_id) VALUES (?, ?)`, [stat, 1]);
    const kept = await count(tk, 'statistics');
    await tk.kernel.scheduler.runRecurring('svc_weekly', tk.clock.now(), true);
    expect(await count(tk, 'browsers', 'ID = ?', [junk])).toBe(0);
    expect(await count(tk, 'sessions', 'ID = ?', [session])).toBe(0);
    expect(await count(tk, 'statistics', 'ID = ?', [stat])).toBe(0);
    expect(await count(tk, 'goal_statistics', 'statistic_id = ?', [stat])).toBe(0);
    expect(await count(tk, 'statistics')).toBe(kept - 1);
    expect(await count(tk, 'browsers', 'name = ?', ['Chrome'])).toBe(1);
  });

  it('reports the transport from a self-test', async () => {
    const admin = await tk.signedIn();
    const nonce = await tk.nonce(admin);
    const before = await count(tk, 'statistics');
    const res = await admin.get(`${tk.api}/tracking/status`, { headers: { 'x-svc-nonce': nonce } });
    expect(res.body.data).toEqual({ status: 'rest', last_test: tk.clock.unix() });
    const tested = await admin.post(`${tk.api}/tracking/status/test`, { headers: { 'x-svc-nonce': nonce } });
    expect(tested.body.data).toEqual({ status: 'rest', last_test: tk.clock.unix() });
    expect(await tk.kernel.services.get('tracking')!.transportStatus()).toEqual({ status: 'rest', last_test: tk.clock.unix() });
    expect(await count(tk, 'statistics')).toBe(before);
    expect((await tk.client().get(`${tk.api}/tracking/status`)).status).toBe(401);
  });
});

describe('transport status when the REST API is unreachable', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_REST_PREFIX: '/api' } });
  });
  afterAll(() => tk.close());

  it('falls back to the beacon, and to error when nothing answers', async () => {
    const service = tk.kernel.services.get('tracking')!;
    expect(await service.transportStatus()).toEqual({ status: 'rest', last_test: expect.any(Number) });
    tk.kernel.config.apiBase = `${tk.url}/nowhere/svc/v1`;
    const admin = await tk.signedIn();
    const nonce = await tk.nonce(admin);
    const beaconOnly = await admin.post(`${tk.api}/tracking/status/test`, { headers: { 'x-svc-nonce': nonce } });
    expect(beaconOnly.body.data).toEqual({ status: 'beacon', last_test: tk.clock.unix() });
    tk.kernel.config.baseUrl = 'http://127.0.0.1:9';
    const none = await admin.post(`${tk.api}/tracking/status/test`, { headers: { 'x-svc-nonce': nonce } });
    expect(none.body.data).toEqual({ status: 'error', last_test: tk.clock.unix() });
  });
});
