import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, beacon, count, pageview, rows, track } from './helpers';

describe('tracking endpoints (tracking.md §4, docs/errors.md)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_ALLOWED_ORIGINS: 'https://site.example' } });
  });
  afterAll(() => tk.close());

  it('records a double-encoded payload and a plain object on the REST endpoint', async () => {
    expect((await track(tk, pageview('https://site.example/a/', 'rest1'))).body).toEqual({ success: true });
    expect((await track(tk, pageview('https://site.example/b/', 'rest2'), { plain: true })).body).toEqual({ success: true });
    expect(await count(tk, 'statistics', 'uid IN (?, ?)', ['rest1', 'rest2'])).toBe(2);
  });

  it('answers the REST test request without writing', async () => {
    const before = await count(tk, 'statistics');
    expect((await track(tk, { request: 'test' })).body).toEqual({ success: 'test' });
    expect((await track(tk, { request: 'test' }, { plain: true })).body).toEqual({ success: 'test' });
    expect(await count(tk, 'statistics')).toBe(before);
  });

  it('records raw bodies on the beacon endpoint and answers request=test with 200 and no write', async () => {
    const res = await beacon(tk, JSON.stringify(pageview('https://site.example/beacon/', 'beacon1')));
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    await beacon(tk, JSON.stringify(JSON.stringify(pageview('https://site.example/beacon2/', 'beacon1'))));
    expect(await count(tk, 'statistics', 'uid = ?', ['beacon1'])).toBe(2);
    const before = await count(tk, 'statistics');
    expect((await beacon(tk, 'request=test')).status).toBe(200);
    expect(await count(tk, 'statistics')).toBe(before);
  });

  it('allows only the configured origins (CORS) on both transports', async () => {
    const client = tk.client();
    for (const path of [`${tk.api}/track`, `${tk.url}/svc/endpoint`]) {
      const ok = await client.request('OPTIONS', path, { headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' } });
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://site.example');
      const other = await client.request('OPTIONS', path, { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('answers 400 to unreadable bodies and 413 to bodies above 64 KiB', async () => {
    const client = tk.client();
    const bad = await client.post(`${tk.api}/track`, { raw: '{"url":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'svc_invalid_json' });
    expect((await track(tk, '{not json')).body.code).toBe('svc_invalid_json');
    for (const payload of [[1, 2], 42, null, 'just text', true]) {
      const res = await track(tk, payload, { plain: true });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await beacon(tk, 'not json at all')).status).toBe(400);
    expect((await beacon(tk, '')).status).toBe(400);
    const huge = { ...pageview('https://site.example/', 'huge'), user_agent: 'x'.repeat(70_000) };
    expect((await track(tk, huge)).status).toBe(413);
    expect((await beacon(tk, JSON.stringify(huge))).status).toBe(413);
    const missingType = await client.post(`${tk.api}/track`, { raw: JSON.stringify(pageview('https://site.example/', 'notype')), headers: { 'content-type': 'application/octet-stream' } });
    expect(missingType.status).toBe(400);
  });

  it('refuses a hit without a usable page URL', async () => {
    for (const url of [undefined, false, '', 'not a url', 'javascript:alert(1)', 'ftp://site.example/', 42, ['https://a.example/'], 'https://'.padEnd(5000, 'a')]) {
      const res = await track(tk, { ...pageview('https://x.example/', 'nourl'), url });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_invalid_url');
    }
    expect(await count(tk, 'statistics', 'uid = ?', ['nourl'])).toBe(0);
  });

  it('survives every other field missing, of the wrong type, false, huge or hostile, storing only clean values', async () => {
    const hostile = '<script>alert(1)</script>\u0000\u202e\ud800 \'; DROP TABLE svc_statistics; --';
    const variants: unknown[] = [undefined, null, false, true, 0, -5, 1e308, 'NaN', [], {}, [1, 'x', null], hostile, 'x'.repeat(10_000)];
    const fields = ['referrer_url', 'external_link_url', 'user_agent', 'uid', 'fingerprint', 'time_on_page', 'completed_goals', 'page_id', 'page_type', 'search_term', 'should_load_ecommerce'];
    let n = 0;
    for (const field of fields) {
      for (const value of variants) {
        const payload: Record<string, unknown> = pageview(`https://site.example/bad/${field}/`, `bad${n++}`);
        if (value === undefined) delete payload[field];
        else payload[field] = value;
        const res = await track(tk, payload);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true });
      }
    }
    const hostileUrl = await track(tk, pageview(`https://site.example/<script>alert(1)</script>?q=<img src=x onerror=alert(1)>#<b>`, 'hostileurl'));
    expect(hostileUrl.status).toBe(200);
    const stats = await rows(tk, 'statistics', 'page_url LIKE ?', ['/bad/%']);
    expect(stats.length).toBeGreaterThan(0);
    const sessions = await rows(tk, 'sessions');
    for (const row of [...stats, ...sessions, ...(await rows(tk, 'statistics', 'uid = ?', ['hostileurl'])), ...(await rows(tk, 'searches'))]) {
      for (const value of Object.values(row)) {
        if (typeof value !== 'string') continue;
        expect(value).not.toMatch(/[<>\u202e]/);
        expect(value.includes(String.fromCharCode(0))).toBe(false);
        expect(value.length).toBeLessThanOrEqual(2048);
      }
    }
    for (const s of stats) {
      expect(Number(s.time_on_page)).toBeGreaterThanOrEqual(0);
      expect(Number(s.time_on_page)).toBeLessThanOrEqual(86_400);
      expect(Number(s.page_id)).toBeGreaterThanOrEqual(0);
    }
    // No partial writes: every pageview has its session.
    const orphans = await tk.kernel.db.select(
      `SELECT st.ID FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))} st LEFT JOIN ${tk.kernel.db.quote(tk.kernel.db.table('sessions'))} s ON s.ID = st.session_id WHERE s.ID IS NULL`,
    );
    expect(orphans).toEqual([]);
  });

  it('takes invalid UTF-8 bodies without failing', async () => {
    const json = Buffer.from(JSON.stringify(pageview('https://site.example/utf/', 'utf8bad', { search_term: 'caf__' })));
    const at = json.indexOf('__');
    json[at] = 0xc3;
    json[at + 1] = 0x28;
    const res = await tk.client().post('/svc/endpoint', { raw: json, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(await count(tk, 'statistics', 'uid = ?', ['utf8bad'])).toBe(1);
  });

  it('refuses client error reports outside debug mode', async () => {
    const res = await tk.client().post('/svc/ajax', { form: { action: 'svc_tracking_error', message: 'boom' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('svc_debug_off');
  });
});

describe('tracking endpoints in debug mode', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_DEBUG: '1' } });
  });
  afterAll(() => tk.close());

  it('shows why a hit was dropped, on both transports', async () => {
    const bot = pageview('https://site.example/', 'bot', { user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    expect((await track(tk, bot)).body).toEqual({ success: true, outcome: 'bot' });
    expect((await beacon(tk, JSON.stringify(bot))).text).toBe('bot');
    expect((await track(tk, pageview('https://site.example/', 'ok'))).body).toEqual({ success: true });
  });

  it('writes client error reports to the error log', async () => {
    const res = await tk.client().post('/svc/ajax', { form: { action: 'svc_tracking_error', message: 'fetch failed <b>', status: '400' }, headers: { 'user-agent': CHROME } });
    expect(res.status).toBe(200);
    const entry = tk.logs.find((l) => l.msg === 'tracking error reported by the browser');
    expect(entry).toMatchObject({ level: 50, report: { message: 'fetch failed <b>', status: '400' } });
    expect((await tk.client().post('/svc/ajax', { form: { action: 'other' } })).status).toBe(400);
    expect((await tk.client().post('/svc/ajax', { json: { action: 'svc_tracking_error', error: { deep: 1 } } })).status).toBe(200);
  });
});
