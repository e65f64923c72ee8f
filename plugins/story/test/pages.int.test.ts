import { DEFAULT_SITE_ID } from '../../../core';
import { createTestKernel } from '../../../test/helpers/test-kernel';
import { type Json, type StoryKernel, dataAttribute, follow, startStoryKernel } from './support';

describe('share pages', () => {
  let k: StoryKernel;
  beforeAll(async () => {
    k = await startStoryKernel();
  });
  afterAll(() => k.close());

  describe('the legacy upgrader', () => {
    it('answers the form without a tab with a small page whose script is a file (CSP script-src self)', async () => {
      const token = (await k.share()).token;
      const res = await k.tk.client().get(`/svc-dashboard/?svc_share_token=${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('cache-control')).toBe('no-store');
      const scripts = [...res.text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
      expect(scripts).toHaveLength(1);
      expect(scripts[0]![2]).toBe('');
      const src = /src="([^"]+)"/.exec(scripts[0]![1]!)![1]!;
      expect(src).toMatch(/^\/svc\/assets\/story-upgrade\.js\?v=[a-f0-9]{16}$/);
      const script = await k.tk.client().get(src);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('javascript');
      for (const tab of ['statistics', 'sources', 'sales']) expect(script.text).toContain(`"${tab}"`);
      // The upgrader signs nobody in: only the page with a tab does.
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('refuses a malformed token before anything else', async () => {
      for (const query of ['', '?svc_share_token=xyz', `?svc_share_token=${'A'.repeat(32)}`, `?svc_share_token=${'a'.repeat(32)}&svc_share_token=${'b'.repeat(32)}`]) {
        const res = await k.tk.client().get(`/svc-dashboard/${query}`);
        expect([query, res.status]).toEqual([query, 404]);
        expect(res.text).toContain('This share link is not valid');
      }
    });
  });

  describe('shared tab pages', () => {
    it('puts the initial state into the address, and keeps it there when the link does not allow changes', async () => {
      const { url, token } = await k.share({
        shared_tabs: ['statistics'],
        initial_state: { date_range: { start: '2026-01-12', end: '2026-01-14' }, filters: { page_url: '/pricing' } },
      });
      const client = k.tk.client();
      const first = await client.get(`${url}&range=last_7_days&filters=${encodeURIComponent('{"device":"mobile"}')}`);
      expect(first.status).toBe(302);
      const location = new URL(first.headers.get('location')!, k.tk.url);
      expect(location.pathname).toBe('/svc-dashboard/statistics/');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        svc_share_token: token,
        range: 'custom',
        date_start: '2026-01-12',
        date_end: '2026-01-14',
        filters: JSON.stringify({ page_url: '/pricing' }),
      });
      const page = await client.get(location.pathname + location.search);
      expect(page.status).toBe(200);
    });

    it('starts from the initial state but keeps the viewer own choices when the link allows them', async () => {
      const { url } = await k.share({
        permissions: { can_change_date: true, can_filter: true },
        initial_state: { date_range: { start: '2026-01-12', end: '2026-01-14' }, filters: { page_url: '/pricing' } },
      });
      const client = k.tk.client();
      const start = await client.get(url);
      expect(start.status).toBe(302);
      expect(start.headers.get('location')).toContain('date_start=2026-01-12');
      const own = await client.get(`${url}&range=last_7_days&filters=%7B%7D`);
      expect(own.status).toBe(200);
    });

    it('renders the same admin page, read-only: no goal management link', async () => {
      const { url } = await k.share();
      const shared = await follow(k.tk.client(), url);
      const admin = await k.tk.signedIn();
      const own = await admin.get('/svc-admin/statistics');
      const section = (html: string) => /<section class="svc-stats"[^]*<\/section>/.exec(html)![0];
      expect(section(own.text)).toContain('Manage goals');
      expect(section(shared.text)).not.toContain('Manage goals');
      // Admin-only links (goal management, the Live page) are left out of the shared page; the rest is the same.
      expect(section(shared.text)).not.toContain('data-live-link');
      expect(section(shared.text)).not.toContain('data-funnels-link');
      const adminOnly = (html: string) =>
        html
          .replace(/<a href[^>]*>Manage goals<\/a>/, '')
          .replace(/ · <a href="[^"]*" data-live-link>Live view<\/a>/, '')
          .replace(/ · <a href="[^"]*" data-funnels-link>Funnels<\/a>/, '');
      expect(adminOnly(section(shared.text))).toBe(adminOnly(section(own.text)));
    });
  });

  describe('the story page', () => {
    it('shows the report title, period, blocks and comments, escaped, with each block data parameters', async () => {
      const id = await k.report({
        name: 'Story <img src=x onerror=alert(1)>',
        reportDateRange: 'custom:2026-01-12:2026-01-14',
        content: [
          { id: 'compare', comment_title: 'What <b>changed</b>', comment_text: 'More visitors\nthan before.' },
          { id: 'pages', filters: [{ key: 'page_url', value: '/pricing' }], content: 'Our <pricing> page.' },
          { id: 'referrers', date_range_enabled: true, date_range: 'yesterday' },
        ],
      });
      const { url, token } = await k.share({ report_id: id });
      const { client, res } = await k.visit(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text).toContain('<h1>Story &lt;img src=x onerror=alert(1)&gt;</h1>');
      expect(res.text).toContain('12 Jan 2026 – 14 Jan 2026');
      expect(res.text).toContain('<h3>What &lt;b&gt;changed&lt;/b&gt;</h3>');
      expect(res.text).toContain('Our &lt;pricing&gt; page.');
      const blocks = [...res.text.matchAll(/<section class="story-block" ([^>]*)>\s*<h2>([^<]*)<\/h2>/g)].map((m) => ({
        attrs: m[1]!,
        title: m[2],
      }));
      expect(blocks.map((b) => b.title)).toEqual(['Summary', 'Most visited pages', 'Top referrers']);
      expect(dataAttribute(blocks[1]!.attrs, 'filters')).toBe(JSON.stringify([{ key: 'page_url', value: '/pricing' }]));
      expect(dataAttribute(blocks[2]!.attrs, 'date-start')).toBe('2026-01-19');
      expect(dataAttribute(res.text, 'share-token')).toBe(token);
      expect(res.text).not.toContain('<script>');
      expect((await k.viewerGet(client, token, '/data/datatable/pages')).status).toBe(200);
    });

    it('refuses a dashboard link, and a report that is switched off', async () => {
      const dashboard = await k.share();
      expect((await k.visit(`/svc-dashboard/story/?svc_share_token=${dashboard.token}`)).res.status).toBe(404);
      const id = await k.report({ name: 'Off', enabled: false });
      const { url } = await k.share({ report_id: id });
      const { client, res } = await k.visit(url);
      expect(res.status).toBe(404);
      expect(res.text).toContain('This story is not available');
      expect(client.cookie('svc_session')).toBeUndefined();
    });

    it('offers story as a report format and hands reports the story link of a report', async () => {
      const id = await k.report({ name: 'Linked' });
      const story = k.tk.kernel.services.get('story')!;
      const url = await story.reportLink(DEFAULT_SITE_ID, id);
      expect(url).toMatch(new RegExp(`^${k.tk.url}/svc-dashboard/story/\\?svc_share_token=[a-f0-9]{32}$`));
      expect(await story.reportLink(DEFAULT_SITE_ID, id)).toBe(url);
      const links = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.report_id === id);
      expect(links).toHaveLength(1);
      expect(links[0].expires).toBe(k.clock.unix() + 30 * 86400);
    });
  });

  describe('the share links admin page', () => {
    const formNonce = (html: string) => /name="_svc_nonce" value="([a-f0-9]+)"/.exec(html)![1]!;

    it('creates a link from the form, shows it to copy, lists it with its expiry and revokes it', async () => {
      const admin = await k.tk.signedIn();
      const page = await admin.get('/svc-admin/share');
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="tabs" value="statistics"');
      expect(page.text).toContain('name="tabs" value="sources"');
      expect(page.text).not.toContain('name="tabs" value="sales"');
      const made = await admin.post('/svc-admin/share', {
        form: {
          _svc_nonce: formNonce(page.text),
          tabs: ['statistics', 'sources'],
          can_change_date: '1',
          expiration: '30d',
          view_url: `${k.tk.url}/svc-admin/sources?range=last_7_days`,
          date_start: '2026-01-12',
          date_end: '2026-01-14',
          filters: 'page_url: /pricing\ndevice: desktop',
        },
      });
      expect(made.status).toBe(302);
      const token = /created=([a-f0-9]{32})/.exec(made.headers.get('location')!)![1]!;
      const [link] = (await k.action('list_share_links')).body.share_links.filter((l: Json) => l.token === token);
      expect(link).toMatchObject({
        shared_tabs: ['statistics', 'sources'],
        permissions: { can_change_date: true, can_filter: false },
        expires: k.clock.unix() + 30 * 86400,
        initial_state: { date_range: { start: '2026-01-12', end: '2026-01-14' }, filters: { page_url: '/pricing', device: 'desktop' } },
      });
      expect(link.url).toBe(`${k.tk.url}/svc-dashboard/sources/?svc_share_token=${token}&range=last_7_days`);
      const shown = await admin.get(made.headers.get('location')!);
      expect(shown.text).toContain(`data-copy="${link.url.replace(/&/g, '&amp;')}"`);
      expect(shown.text).toContain(`<tr data-token="${token}">`);
      const revoked = await admin.post('/svc-admin/share/revoke', { form: { _svc_nonce: formNonce(shown.text), token } });
      expect(revoked.status).toBe(302);
      expect((await k.action('list_share_links')).body.share_links.map((l: Json) => l.token)).not.toContain(token);
    });

    it('shows refused input again with the reason and stores nothing', async () => {
      const admin = await k.tk.signedIn();
      const page = await admin.get('/svc-admin/share');
      const before = (await k.action('list_share_links')).body.share_links.length;
      const forms: Array<Record<string, string>> = [{ expiration: 'forever' }, { expiration: '7d', filters: 'no colon here' }, { expiration: '7d', date_start: '2026-01-14', date_end: '2026-01-12' }];
      for (const form of forms) {
        const res = await admin.post('/svc-admin/share', { form: { _svc_nonce: formNonce(page.text), ...form } });
        expect([form, res.status]).toEqual([form, 400]);
        expect(res.text).toContain('class="notice error"');
      }
      expect((await admin.post('/svc-admin/share', { form: { _svc_nonce: 'bad', expiration: '7d' } })).status).toBe(400);
      expect((await k.action('list_share_links')).body.share_links).toHaveLength(before);
    });

    it('is for managers only', async () => {
      await k.tk.kernel.users.create({ login: 'reader', role: 'editor', password: 'reader-password' });
      const editor = await k.tk.signedIn('reader', 'reader-password');
      expect((await editor.get('/svc-admin/share')).status).toBe(403);
      expect((await k.tk.client().get('/svc-admin/share')).status).toBe(302);
    });
  });
});

describe('share URLs on a configured base URL', () => {
  it('always use the scheme, host and path of SVC_BASE_URL', async () => {
    const tk = await createTestKernel({ plugins: ['tracking', 'reports', 'story'], env: { SVC_LICENSE: 'creator', SVC_BASE_URL: 'https://stats.example.com/analytics' } });
    try {
      const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
      const admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 't')).password);
      const api = `${tk.url}${tk.kernel.config.restPrefix}/svc/v1`;
      const res = await admin.post(`${api}/do_action/get_share_token`, { json: { view_url: 'http://127.0.0.1/analytics/svc-admin/statistics?range=today' } });
      expect(res.body.share_url).toBe(`https://stats.example.com/analytics/svc-dashboard/statistics/?svc_share_token=${res.body.share_token}&range=today`);
      const created = await admin.post(`${api}/do_action/report/create`, { json: { report: { name: 'R', format: 'story', recipients: ['a@example.com'], content: [{ id: 'pages' }] } } });
      const link = await tk.kernel.services.get('story')!.reportLink(DEFAULT_SITE_ID, created.body.data.report.id);
      expect(link).toMatch(/^https:\/\/stats\.example\.com\/analytics\/svc-dashboard\/story\/\?svc_share_token=[a-f0-9]{32}$/);
      const page = await tk.client().get(`/svc-dashboard/statistics/?svc_share_token=${res.body.share_token}&range=today`);
      expect(page.status).toBe(200);
    } finally {
      await tk.close();
    }
  });
});
