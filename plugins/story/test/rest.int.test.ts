import { createTestKernel } from '../../../test/helpers/test-kernel';
import { type Json, type StoryKernel, startStoryKernel } from './support';

const HEX32 = /^[a-f0-9]{32}$/;

describe('share link REST operations', () => {
  let k: StoryKernel;
  beforeAll(async () => {
    k = await startStoryKernel();
  });
  afterAll(() => k.close());

  describe('do_action/get_share_token', () => {
    it('makes a 16-byte hex token with the defaults: 7 days, no permissions, the first available tab', async () => {
      const before = k.clock.unix();
      const res = await k.action('get_share_token');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['share_token', 'share_url']);
      expect(res.body.share_token).toMatch(HEX32);
      expect(res.body.share_url).toBe(`${k.tk.url}/svc-dashboard/statistics/?svc_share_token=${res.body.share_token}`);
      const [link] = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.token === res.body.share_token);
      expect(link).toEqual({
        token: res.body.share_token,
        url: res.body.share_url,
        expires: before + 7 * 86400,
        created: before,
        report_id: 0,
        permissions: { can_change_date: false, can_filter: false },
        shared_tabs: ['statistics'],
        initial_state: { date_range: { start: '', end: '' }, filters: {} },
      });
    });

    it('reads the tab from the view URL path and keeps its view parameters, never its credentials', async () => {
      const { url, token } = await k.share({
        view_url: 'https://elsewhere.example/svc-admin/sources?range=last_7_days&svc_nonce=abc&svc_share_token=' + 'b'.repeat(32),
        shared_tabs: ['statistics'],
      });
      expect(url).toBe(`${k.tk.url}/svc-dashboard/sources/?svc_share_token=${token}&range=last_7_days`);
      const [link] = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.token === token);
      expect(link.shared_tabs).toEqual(['sources', 'statistics']);
    });

    it('accepts the legacy hash route: the tab moves into the path, the parameters into the query', async () => {
      const { url, token } = await k.share({ view_url: `${k.tk.url}/svc-admin/?page=svc#/sources?range=last_month&filters=%7B%22device%22%3A%22mobile%22%7D` });
      expect(url).toBe(`${k.tk.url}/svc-dashboard/sources/?svc_share_token=${token}&page=svc&range=last_month&filters=%7B%22device%22%3A%22mobile%22%7D`);
    });

    it('drops tabs outside the whitelist silently, and reserves story for report links', async () => {
      const res = await k.action('get_share_token', { shared_tabs: ['dashboard', 'subscriptions', 'story', 'sales', 'sources', 42, 'sources'] });
      expect(res.status).toBe(200);
      const [link] = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.token === res.body.share_token);
      // sales needs the business license; this kernel runs on creator.
      expect(link.shared_tabs).toEqual(['sources']);
      expect(res.body.share_url).toContain('/svc-dashboard/sources/');
    });

    it('stores permissions and the initial state; expirations never, 24h and 30d', async () => {
      const now = k.clock.unix();
      for (const [expiration, expires] of [['never', 0], ['24h', now + 86400], ['30d', now + 30 * 86400]] as const) {
        const { token } = await k.share({
          expiration,
          permissions: { can_change_date: true, can_filter: 'false', extra: true },
          initial_state: { date_range: { start: '2026-01-12', end: '2026-01-14' }, filters: { page_url: '/pricing', status: 'all', device: '' } },
        });
        const [link] = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.token === token);
        expect(link.expires).toBe(expires);
        expect(link.permissions).toEqual({ can_change_date: true, can_filter: false });
        expect(link.initial_state).toEqual({ date_range: { start: '2026-01-12', end: '2026-01-14' }, filters: { page_url: '/pricing', status: 'all' } });
      }
    });

    it('passes permissions through svc_share_permissions with the raw values', async () => {
      const seen: unknown[] = [];
      k.tk.kernel.hooks.addFilter('svc_share_permissions', (permissions, raw) => {
        seen.push(raw);
        return raw.lock === true ? { can_change_date: false, can_filter: false } : permissions;
      }, {}, 'story-test');
      const { token } = await k.share({ permissions: { can_change_date: true, can_filter: true, lock: true } });
      const [link] = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.token === token);
      expect(link.permissions).toEqual({ can_change_date: false, can_filter: false });
      expect(seen).toContainEqual({ can_change_date: true, can_filter: true, lock: true });
    });

    it.each([
      ['expiration', { expiration: '1y' }],
      ['expiration', { expiration: 7 }],
      ['view_url', { view_url: 12 }],
      ['view_url', { view_url: `/svc-admin/statistics?${'x'.repeat(2100)}` }],
      ['permissions', { permissions: 'all' }],
      ['permissions.can_filter', { permissions: { can_filter: 'maybe' } }],
      ['shared_tabs', { shared_tabs: { a: 1 } }],
      ['initial_state', { initial_state: [] }],
      ['initial_state.date_range.start', { initial_state: { date_range: { start: '2026-02-30', end: '2026-03-01' } } }],
      ['initial_state.date_range', { initial_state: { date_range: { start: '2026-03-02', end: '2026-03-01' } } }],
      ['initial_state.filters', { initial_state: { filters: { no_such_dimension: 'x' } } }],
      ['initial_state.filters.page_url', { initial_state: { filters: { page_url: { $gt: '' } } } }],
      ['report_id', { report_id: -1 }],
      ['report_id', { report_id: '1; DROP TABLE' }],
      ['body', [1, 2]],
    ])('answers 400 naming %s and stores nothing', async (field, body) => {
      const before = (await k.action('list_share_links')).body.share_links.length;
      const res = await k.action('get_share_token', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'svc_invalid_param', data: { field } });
      expect((await k.action('list_share_links')).body.share_links).toHaveLength(before);
    });

    it('answers 404 for a report that does not exist', async () => {
      const res = await k.action('get_share_token', { report_id: 999999 });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('svc_report_not_found');
    });

    it('makes a story link for a report and reuses (and renews) that token', async () => {
      const id = await k.report();
      const first = await k.share({ report_id: id, shared_tabs: ['statistics'], expiration: '24h' });
      expect(first.url).toBe(`${k.tk.url}/svc-dashboard/story/?svc_share_token=${first.token}`);
      const second = await k.share({ report_id: String(id), expiration: 'never', permissions: { can_change_date: true } });
      expect(second).toEqual(first);
      const links = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.report_id === id);
      expect(links).toHaveLength(1);
      expect(links[0]).toMatchObject({ shared_tabs: ['story'], expires: 0, permissions: { can_change_date: true, can_filter: false } });
    });
  });

  describe('do_action/list_share_links and revoke_share_link', () => {
    it('lists only live tokens, as a sequential array, with the shareable tabs', async () => {
      const { token } = await k.share({ expiration: '24h' });
      const listed = await k.action('list_share_links');
      expect(listed.status).toBe(200);
      expect(Array.isArray(listed.body.share_links)).toBe(true);
      expect(Object.keys(listed.body.share_links)).toEqual(listed.body.share_links.map((_: Json, i: number) => String(i)));
      expect(listed.body.shareable_tabs).toEqual([{ id: 'statistics', title: 'Statistics' }, { id: 'sources', title: 'Sources' }]);
      expect(listed.body.share_links.map((l: Json) => l.token)).toContain(token);
      k.clock.advance(86400);
      try {
        expect((await k.action('list_share_links')).body.share_links.map((l: Json) => l.token)).not.toContain(token);
      } finally {
        k.clock.advance(-86400);
      }
    });

    it('revokes a token and answers the remaining links', async () => {
      const { token } = await k.share();
      const res = await k.action('revoke_share_link', { token });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(Array.isArray(res.body.share_links)).toBe(true);
      expect(res.body.share_links.map((l: Json) => l.token)).not.toContain(token);
      const again = await k.action('revoke_share_link', { token });
      expect(again.body).toMatchObject({ success: false });
    });

    it.each([[{}], [{ token: 'ABCDEF'.padEnd(32, '0') }], [{ token: 'a'.repeat(31) }], [{ token: ['a'.repeat(32)] }]])('refuses a malformed token %j with 400', async (body) => {
      const res = await k.action('revoke_share_link', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'svc_invalid_share_token', data: { field: 'token' } });
    });
  });

  describe('access to the share operations', () => {
    it('needs manage_svc_statistics: anonymous 401, an editor 403, a session without nonce 403', async () => {
      for (const action of ['get_share_token', 'revoke_share_link', 'list_share_links']) {
        expect((await k.tk.client().post(`${k.tk.api}/do_action/${action}`, { json: {} })).status).toBe(401);
      }
      await k.tk.kernel.users.create({ login: 'editor', role: 'editor', password: 'editor-password' });
      const editor = await k.tk.signedIn('editor', 'editor-password');
      const nonce = await k.tk.nonce(editor);
      const res = await editor.post(`${k.tk.api}/do_action/list_share_links`, { json: {}, headers: { 'x-svc-nonce': nonce } });
      expect(res.status).toBe(403);
      const admin = await k.tk.signedIn();
      expect((await admin.post(`${k.tk.api}/do_action/list_share_links`, { json: {} })).body.code).toBe('svc_invalid_nonce');
      const ok = await admin.post(`${k.tk.api}/do_action/list_share_links`, { json: {}, headers: { 'x-svc-nonce': await k.tk.nonce(admin) } });
      expect(ok.status).toBe(200);
    });

    it('no longer answers the removed names', async () => {
      expect((await k.admin.post(`${k.tk.api}/get_action/get_share_links`, { json: {} })).status).toBe(404);
      expect((await k.admin.get(`${k.tk.api}/get_action/get_share_links`)).status).toBe(404);
      const res = await k.tk.client().post(`${k.tk.api}/get_action/report-data`, { json: { token: 'a'.repeat(32) } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('svc_no_route');
    });
  });

  describe('get_action/story-report-data', () => {
    const storyData = (body: unknown) => k.tk.client().post(`${k.tk.api}/get_action/story-report-data`, { json: body });

    it('answers an empty array for a missing, malformed, unknown, dashboard or revoked token', async () => {
      const dashboard = await k.share();
      const id = await k.report({ name: 'Revoked one' });
      const revoked = await k.share({ report_id: id });
      await k.action('revoke_share_link', { token: revoked.token });
      for (const body of [{}, { token: '' }, { token: 'A'.repeat(32) }, { token: `${'a'.repeat(31)}'` }, { token: 'c'.repeat(32) }, { token: dashboard.token }, { token: revoked.token }, 'text', null]) {
        const res = await storyData(body);
        expect([JSON.stringify(body), res.status, res.body.data]).toEqual([JSON.stringify(body), 200, []]);
      }
    });

    it('answers the report in its shared-link form: no recipients, schedule or send status', async () => {
      const id = await k.report({
        name: 'Shared story',
        recipients: ['secret-recipient@example.com'],
        frequency: 'monthly',
        dayOfWeek: 'friday',
        weekOfMonth: 2,
        sendTime: '07:45',
        content: [{ id: 'pages', filters: [{ key: 'page_url', value: '/pricing' }], comment_title: 'Why', comment_text: 'Pricing matters.' }],
      });
      const { token } = await k.share({ report_id: id });
      const res = await storyData({ token, report_id: id + 1 });
      expect(res.status).toBe(200);
      const report = res.body.data;
      expect(report).toMatchObject({ id, name: 'Shared story', format: 'story', enabled: true, reportDateRange: 'last_week' });
      expect(report.content[0]).toMatchObject({ id: 'pages', filters: [{ key: 'page_url', value: '/pricing' }], comment_text: 'Pricing matters.' });
      expect(report).toMatchObject({ recipients: [], weekOfMonth: null, dayOfWeek: null, sendTime: '', lastEdit: 0, scheduled: false, lastSendStatus: '', lastSendMessage: '' });
      expect(res.text).not.toContain('secret-recipient');
      expect(res.text).not.toContain('07:45');
      expect(res.text).not.toContain('friday');
    });

    it('answers an empty array once the report is disabled', async () => {
      const id = await k.report({ name: 'Soon off' });
      const { token } = await k.share({ report_id: id });
      const update = await k.admin.post(`${k.tk.api}/do_action/report/update`, { json: { report: { id, enabled: false } } });
      expect(update.status).toBe(200);
      expect((await storyData({ token })).body.data).toEqual([]);
    });
  });
});

describe('share links without the reports plugin', () => {
  it('still makes dashboard links, refuses report links and answers story data with []', async () => {
    const tk = await createTestKernel({ plugins: ['tracking', 'story'], env: { SVC_LICENSE: 'creator' } });
    try {
      const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
      const admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 't')).password);
      const made = await admin.post(`${tk.api}/do_action/get_share_token`, { json: { shared_tabs: ['sources'] } });
      expect(made.status).toBe(200);
      expect(made.body.share_url).toContain('/svc-dashboard/statistics/');
      expect((await admin.post(`${tk.api}/do_action/get_share_token`, { json: { report_id: 1 } })).status).toBe(404);
      const data = await tk.client().post(`${tk.api}/get_action/story-report-data`, { json: { token: made.body.share_token } });
      expect(data.body.data).toEqual([]);
    } finally {
      await tk.close();
    }
  });
});
