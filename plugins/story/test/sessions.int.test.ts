import type { SvcLinkPermissions } from '../../../hooks';
import { Priority } from '../../../core';
import { plantAppPassword } from '../../../test/helpers/planted-app-password';
import { createTestKernel } from '../../../test/helpers/test-kernel';
import { type Json, type StoryKernel, dataAttribute, follow, startStoryKernel } from './support';

const SESSION_COOKIE = 'svc_session';

describe('viewer sessions', () => {
  let k: StoryKernel;
  beforeAll(async () => {
    k = await startStoryKernel();
  });
  afterAll(() => k.close());

  const viewer = async () => (await k.tk.kernel.users.findByLogin('svc_statistics_viewer'))!;

  it('has a system viewer account with the svc_viewer role that cannot sign in with a password', async () => {
    const user = await viewer();
    expect(user).toMatchObject({ role: 'svc_viewer', system: true });
    const res = await k.tk.client().post('/svc-admin/login', { form: { log: 'svc_statistics_viewer', pwd: '!' } });
    expect(res.status).toBe(401);
  });

  it('signs the browser in as the viewer for a valid link and renders the shared tab in place', async () => {
    const { url, token } = await k.share({ shared_tabs: ['statistics'] });
    const { client, res } = await k.visit(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(client.cookie(SESSION_COOKIE)).toBeDefined();
    expect(res.text).toContain('id="svc-stats"');
    expect(res.text).toContain('<span class="who">Shared view</span>');
    expect(dataAttribute(res.text, 'share-token')).toBe(token);
    expect(JSON.parse(dataAttribute(res.text, 'share-permissions')!)).toEqual({ can_change_date: false, can_filter: false });
    const ok = await k.viewerGet(client, token, '/data/compare', { date_start: '2026-01-12', date_end: '2026-01-14' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.current.pageviews).toBeGreaterThan(0);
  });

  it('keeps the menu of a share session to the shared tabs, filtered after every other plugin', async () => {
    k.tk.kernel.hooks.addFilter('svc_menu', (menu) => [...menu, { id: 'late', title: 'Late item', shareable: true, path: '/svc-admin/late', order: 1 }], { priority: Priority.LATE }, 'story-test');
    const { url } = await k.share({ shared_tabs: ['statistics', 'sources'] });
    const { res } = await k.visit(url);
    const nav = /<nav class="menu"[^]*?<\/nav>/.exec(res.text)![0];
    expect([...nav.matchAll(/>([^<]+)<\/a>/g)].map((m) => m[1])).toEqual(['Statistics', 'Sources']);
    const admin = await k.tk.signedIn();
    const adminNav = /<nav class="menu"[^]*?<\/nav>/.exec((await admin.get('/svc-admin/statistics')).text)![0];
    expect(adminNav).toContain('Share links');
    expect(adminNav).toContain('Late item');
  });

  it('refuses a malformed, unknown or expired token without signing anyone in', async () => {
    const { token } = await k.share({ expiration: '24h' });
    k.clock.advance(86400);
    try {
      for (const bad of ['', 'A'.repeat(32), `${'a'.repeat(32)}x`, 'd'.repeat(32), token]) {
        const { client, res } = await k.visit(`/svc-dashboard/statistics/?svc_share_token=${encodeURIComponent(bad)}`);
        expect([bad, res.status]).toEqual([bad, 404]);
        expect(res.text).toMatch(/This share link (is not valid|has expired)/);
        expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
      }
      const { res } = await k.visit('/svc-dashboard/statistics/');
      expect(res.status).toBe(404);
    } finally {
      k.clock.advance(-86400);
    }
  });

  it('refuses a tab the link does not share, and tabs outside the whitelist', async () => {
    const { token } = await k.share({ shared_tabs: ['statistics'] });
    for (const [tab, status] of [['sources', 403], ['sales', 403], ['story', 404], ['dashboard', 404], ['subscriptions', 404], ['settings', 404]] as const) {
      const { client, res } = await k.visit(`/svc-dashboard/${tab}/?svc_share_token=${token}`);
      expect([tab, res.status]).toEqual([tab, status]);
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    }
  });

  describe('the token header as the nonce', () => {
    it('accepts the session token in X-Svc-Share-Token through svc_verify_nonce, and nothing else', async () => {
      const seen: Array<[boolean, string | null, string]> = [];
      k.tk.kernel.hooks.addFilter('svc_verify_nonce', (valid, nonce, action) => (seen.push([valid, nonce, action]), valid), { priority: Priority.LAST }, 'story-test');
      const { url, token } = await k.share();
      const other = await k.share();
      const { client, res } = await k.visit(url);
      const path = '/data/datatable/pages';
      expect((await k.viewerGet(client, token, path)).status).toBe(200);
      expect(seen.at(-1)).toEqual([true, null, 'svc_nonce']);
      const none = await client.get(`${k.tk.api}${path}`);
      expect([none.status, none.body.code]).toEqual([403, 'svc_invalid_nonce']);
      const wrong = await k.viewerGet(client, other.token, path);
      expect([wrong.status, wrong.body.code]).toEqual([403, 'svc_invalid_nonce']);
      const upper = await k.viewerGet(client, token.toUpperCase(), path);
      expect(upper.status).toBe(403);
      // The layout's own nonce passes the nonce check, but a share session must still send its token.
      const nonce = dataAttribute(res.text, 'rest-nonce')!;
      const nonceOnly = await client.get(`${k.tk.api}${path}`, { headers: { 'x-svc-nonce': nonce } });
      expect([nonceOnly.status, nonceOnly.body.code]).toEqual([403, 'svc_share_token_missing']);
    });

    it('does not let a token header stand in for the nonce of a signed-in person', async () => {
      const { token } = await k.share();
      const admin = await k.tk.signedIn();
      const res = await admin.get(`${k.tk.api}/data/datatable/pages`, { headers: { 'x-svc-share-token': token } });
      expect([res.status, res.body.code]).toEqual([403, 'svc_invalid_nonce']);
    });
  });

  it('gives svc_share_link_permissions the link permissions and enforces what the filter returns', async () => {
    const calls: Json[] = [];
    k.tk.kernel.hooks.addFilter('svc_share_link_permissions', (permissions) => {
      calls.push(permissions);
      return 'can_filter' in permissions ? ({ ...permissions, can_filter: false } as SvcLinkPermissions) : permissions;
    }, {}, 'story-test');
    const { url, token } = await k.share({ permissions: { can_change_date: true, can_filter: true }, initial_state: { filters: { page_url: '/pricing' } } });
    const { client, res } = await k.visit(url);
    expect(calls.at(-1)).toEqual({ can_change_date: true, can_filter: true, is_shareable_link_viewer: true });
    expect(JSON.parse(dataAttribute(res.text, 'share-permissions')!)).toEqual({ can_change_date: true, can_filter: false });
    const rows = await k.viewerGet(client, token, '/data/datatable/pages', { date_start: '2026-01-12', date_end: '2026-01-14', filters: JSON.stringify({ page_url: '/' }) });
    expect(rows.body.data.map((r: Json) => r.page_url)).toEqual(['/pricing']);
  });

  it('binds a session to one token: opening another link starts a new session for that one', async () => {
    const a = await k.share({ shared_tabs: ['statistics'] });
    const b = await k.share({ shared_tabs: ['sources'] });
    const { client } = await k.visit(a.url);
    const first = client.cookie(SESSION_COOKIE);
    const res = await client.get(b.url);
    expect(res.status).toBe(200);
    expect(client.cookie(SESSION_COOKIE)).not.toBe(first);
    expect((await k.viewerGet(client, a.token, '/data/compare')).status).toBe(403);
    expect((await k.viewerGet(client, b.token, '/data/channels')).status).toBe(200);
  });

  describe('a signed-in person who opens a share link', () => {
    it('keeps their own session and sees the shared tab with their own rights', async () => {
      const { url, token } = await k.share({ shared_tabs: ['statistics'] });
      const admin = await k.tk.signedIn();
      const nonce = await k.tk.nonce(admin);
      const session = admin.cookie(SESSION_COOKIE);
      const page = await follow(admin, url);
      expect(page.status).toBe(200);
      expect(page.text).toContain('id="svc-stats"');
      expect(dataAttribute(page.text, 'share-token')).toBe(token);
      const pageNonce = dataAttribute(page.text, 'rest-nonce')!;
      expect(pageNonce).not.toBe('');
      expect(admin.cookie(SESSION_COOKIE)).toBe(session);
      // The page's own calls and the rest of the admin area work as before.
      expect((await admin.get(`${k.tk.api}/data/compare`, { headers: { 'x-svc-nonce': pageNonce, 'x-svc-share-token': token } })).status).toBe(200);
      const links = await admin.post(`${k.tk.api}/do_action/list_share_links`, { json: {}, headers: { 'x-svc-nonce': nonce, 'x-svc-share-token': token } });
      expect(links.status).toBe(200);
      expect((await admin.get('/svc-admin/settings')).status).toBe(200);
    });

    it('keeps their session on a story link, whose page calls the API with their nonce', async () => {
      const story = await k.share({ report_id: await k.report({ name: 'Story for the admin' }) });
      const admin = await k.tk.signedIn();
      const session = admin.cookie(SESSION_COOKIE);
      const page = await follow(admin, story.url);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Story for the admin');
      const pageNonce = dataAttribute(page.text, 'rest-nonce')!;
      expect(pageNonce).not.toBe('');
      expect(admin.cookie(SESSION_COOKIE)).toBe(session);
      expect((await admin.get(`${k.tk.api}/data/datatable/pages`, { headers: { 'x-svc-nonce': pageNonce, 'x-svc-share-token': story.token } })).status).toBe(200);
      expect((await admin.get('/svc-admin/settings')).status).toBe(200);
    });

    it('shows a 403 page when their rights do not reach the shared page, and keeps their session', async () => {
      k.tk.kernel.hooks.addFilter('svc_user_can', (can, user, capability) => (user.login === 'limited' && capability === 'view_svc_statistics' ? false : can), {}, 'story-test');
      await k.tk.kernel.users.create({ login: 'limited', role: 'editor', password: 'limited-password' });
      const person = await k.tk.signedIn('limited', 'limited-password');
      const session = person.cookie(SESSION_COOKIE);
      const dashboard = await k.share({ shared_tabs: ['statistics'] });
      const story = await k.share({ report_id: await k.report({ name: 'Out of reach' }) });
      for (const url of [dashboard.url, story.url]) {
        const page = await follow(person, url);
        expect([url, page.status]).toEqual([url, 403]);
        expect(page.text).not.toContain('Out of reach');
        expect(person.cookie(SESSION_COOKIE)).toBe(session);
      }
      expect((await person.get('/svc-admin/account')).status).toBe(200);
    });
  });

  describe('ending sessions', () => {
    it('ends a session at its next request once its token expired', async () => {
      const { url, token } = await k.share({ expiration: '24h' });
      k.clock.advance(12 * 3600);
      const { client } = await k.visit(url);
      k.clock.advance(12 * 3600 - 60);
      expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(200);
      k.clock.advance(60);
      try {
        const res = await k.viewerGet(client, token, '/data/compare');
        expect([res.status, res.body.code]).toEqual([401, 'svc_share_link_expired']);
        const after = await k.viewerGet(client, token, '/data/compare');
        expect([after.status, after.body.code]).toEqual([401, 'svc_not_logged_in']);
      } finally {
        k.clock.advance(-86400);
      }
    });

    it('ends a session at its next request once its token is revoked, pages included', async () => {
      const { url, token } = await k.share();
      const gone = await k.share();
      await k.action('revoke_share_link', { token: gone.token });
      const { client } = await k.visit(url);
      // Opening some other dead link leaves this session alone.
      expect((await client.get(gone.url)).status).toBe(404);
      expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(200);
      await k.action('revoke_share_link', { token });
      const page = await client.get(url);
      expect(page.status).toBe(404);
      expect(page.text).toContain('This share link has expired');
      expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(401);
    });

    it('never lets a viewer session pass 24 hours, even on a link that never expires', async () => {
      const { url, token } = await k.share({ expiration: 'never' });
      const { client } = await k.visit(url);
      k.clock.advance(24 * 3600 - 1);
      expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(200);
      k.clock.advance(1);
      try {
        const res = await k.viewerGet(client, token, '/data/compare');
        expect([res.status, res.body.code]).toEqual([401, 'svc_share_session_expired']);
        expect((await k.viewerGet(client, token, '/data/compare')).body.code).toBe('svc_not_logged_in');
        // Opening the link again starts a new session.
        expect((await client.get(url)).status).toBe(200);
        expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(200);
      } finally {
        k.clock.advance(-24 * 3600);
      }
    });

    it('sets the viewer session cookie to last at most 24 hours', async () => {
      const { url } = await k.share();
      const res = await k.tk.client().get(url);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!);
      expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
      expect(expires - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
      expect(cookie).toMatch(/HttpOnly/i);
    });

    it('lets an ended session still read story data, which needs only its token', async () => {
      const { url, token } = await k.share({ expiration: 'never' });
      const { client } = await k.visit(url);
      const id = await k.report({ name: 'Public data' });
      const story = await k.share({ report_id: id });
      k.clock.advance(24 * 3600);
      try {
        const res = await client.post(`${k.tk.api}/get_action/story-report-data`, { json: { token: story.token } });
        expect([res.status, res.body.data.name]).toEqual([200, 'Public data']);
        expect((await k.viewerGet(client, token, '/data/compare')).body.code).toBe('svc_not_logged_in');
      } finally {
        k.clock.advance(-24 * 3600);
      }
    });

    it('ends every viewer session in the daily job, and only those', async () => {
      const { url, token } = await k.share();
      const { client } = await k.visit(url);
      const admin = await k.tk.signedIn();
      const nonce = await k.tk.nonce(admin);
      await k.tk.kernel.scheduler.runRecurring('svc_daily', k.clock.now(), true);
      expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(401);
      expect((await admin.get(`${k.tk.api}/data/compare`, { headers: { 'x-svc-nonce': nonce } })).status).toBe(200);
    });
  });

  describe('the admin area in a share session', () => {
    it('sends shared tabs and the start page to their share URL and refuses every other page', async () => {
      const { url, token } = await k.share({ shared_tabs: ['statistics'] });
      const { client } = await k.visit(url);
      for (const path of ['/svc-admin/', '/svc-admin/statistics', '/svc-admin/statistics/?range=last_7_days']) {
        const res = await client.get(path);
        expect([path, res.status]).toEqual([path, 302]);
        expect(res.headers.get('location')).toMatch(new RegExp(`^/svc-dashboard/statistics/\\?svc_share_token=${token}`));
      }
      for (const path of ['/svc-admin/sources', '/svc-admin/settings', '/svc-admin/account', '/svc-admin/share', '/svc-admin/reports', '/svc-admin/statistics/goals', '/svc-admin/plugins']) {
        const res = await client.get(path);
        expect([path, res.status]).toEqual([path, 403]);
      }
      expect((await client.post('/svc-admin/settings', { form: {} })).status).toBe(403);
      expect((await client.get('/svc-admin/assets/admin.css')).status).toBe(200);
    });

    it('lets the viewer sign out', async () => {
      const { url, token } = await k.share();
      const { client, res } = await k.visit(url);
      const nonce = /name="_svc_nonce" value="([a-f0-9]+)"/.exec(res.text)![1]!;
      const out = await client.post('/svc-admin/logout', { form: { _svc_nonce: nonce } });
      expect(out.status).toBe(302);
      expect((await k.viewerGet(client, token, '/data/compare')).status).toBe(401);
    });
  });
});

describe('viewer account hardening at start', () => {
  it('deletes application passwords of the viewer account and never accepts them', async () => {
    const first = await createTestKernel({ plugins: ['tracking', 'story'], env: { SVC_LICENSE: 'creator' } });
    const viewer = (await first.kernel.users.findByLogin('svc_statistics_viewer'))!;
    await plantAppPassword(first.kernel.db, viewer.id, 'PlantedSecretPassword123', first.clock.unix());
    expect(await first.kernel.appPasswords.list(viewer.id)).toHaveLength(1);
    const basic = await first.client().withBasic('svc_statistics_viewer', 'PlantedSecretPassword123').get(`${first.api}/data/compare`);
    expect(basic.status).toBe(401);
    await expect(first.kernel.appPasswords.create(viewer, 'x')).rejects.toMatchObject({ code: 'svc_app_passwords_disabled' });
    const second = await createTestKernel({ plugins: ['tracking', 'story'], env: { SVC_LICENSE: 'creator' }, database: first.database });
    try {
      expect(await second.kernel.appPasswords.list(viewer.id)).toEqual([]);
      expect(second.logs.some((l) => l.msg === 'application passwords of the share viewer account were deleted')).toBe(true);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('refuses to load when a person holds the viewer account name', async () => {
    const tk = await createTestKernel({ plugins: [], env: { SVC_LICENSE: 'creator' } });
    await tk.kernel.users.create({ login: 'svc_statistics_viewer', role: 'administrator', password: 'a-long-password' });
    const again = await createTestKernel({ plugins: ['story'], env: { SVC_LICENSE: 'creator' }, database: tk.database });
    try {
      const status = again.kernel.plugins.find((p) => p.name === 'story')!;
      expect(status).toMatchObject({ state: 'failed', code: 'SVC_ERR_VIEWER_ACCOUNT' });
      expect((await again.client().get('/svc-dashboard/statistics/?svc_share_token=' + 'a'.repeat(32))).status).toBe(404);
    } finally {
      await again.close();
      await tk.close();
    }
  });
});
