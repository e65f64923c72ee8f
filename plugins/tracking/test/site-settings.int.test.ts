import { DEFAULT_SITE_ID, type Site } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, count, pageview, track } from './helpers';

/** The `_svc_nonce` and the form's action on the settings page of a site (none named: the page's own choice). */
async function settingsForm(client: HttpClient, site?: number): Promise<{ nonce: string; action: string; html: string }> {
  const page = await client.get(`/svc-admin/settings${site === undefined ? '' : `?site=${site}`}`);
  expect(page.status).toBe(200);
  const nonce = /name="_svc_nonce" value="([a-f0-9]+)"/.exec(page.text)?.[1];
  const action = /<form method="post" action="([^"]+)" class="settings"/.exec(page.text)?.[1];
  if (!nonce || !action) throw new Error(`no settings form (${page.status})`);
  return { nonce, action: action.replace(/&amp;/g, '&'), html: page.text };
}

/** The HTML of one settings field block. */
const fieldBlock = (html: string, key: string) => new RegExp(`<div class="field[^"]*" data-key="${key}">[\\s\\S]*?\\n</div>`).exec(html)?.[0] ?? '';

/** What the blog's settings page saves: exclusions and privacy unlike the default site's. */
const BLOG_FORM = {
  privacy_level: 'private_mode',
  enable_do_not_track: '1',
  track_url_change: '1',
  custom_block_rules: '/private/',
  ip_blocklist: '198.51.100.7',
  user_role_blocklist: ['administrator'],
};

/** The `svc` object an embed snippet writes. */
const embedOptions = async (tk: TestKernel, query = '') => {
  const embed = await tk.client().get(`/svc/embed.js${query}`);
  expect(embed.status).toBe(200);
  return JSON.parse(/window\.svc=(\{.*?\});window\.svc_rest_url/.exec(String(embed.text))![1]!) as { options: Record<string, unknown> };
};

describe('tracking settings per site (issue 15)', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let blog: Site;
  const hit = async (url: string, uid: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
    (await track(tk, pageview(url, uid, extra), { headers })).body.outcome ?? 'recorded';

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_DEBUG: '1' } });
    admin = await tk.signedIn();
  });
  afterAll(() => tk.close());

  it('shows no site on the settings page of an install with one site', async () => {
    const { html, action } = await settingsForm(admin);
    expect(html).toContain('<h1>Settings</h1>');
    expect(html).not.toContain('data-every-site');
    expect(action).toBe('/svc-admin/settings');
  });

  it('saves a site\'s tracking options and exclusions for that site only, under derived option names', async () => {
    blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example', timezone: 'UTC' });
    const form = await settingsForm(admin, blog.id);
    expect(form.action).toBe(`/svc-admin/settings?site=${blog.id}`);
    expect(form.html).toContain('<h1>Settings for Blog</h1>');
    expect(form.html).toContain(`data-site-scope="${blog.id}"`);
    // Install-wide fields are marked; the site's own are not.
    expect(fieldBlock(form.html, 'headless')).toContain('data-every-site');
    expect(fieldBlock(form.html, 'enable_turbo_mode')).toContain('data-every-site');
    expect(fieldBlock(form.html, 'ip_blocklist')).not.toContain('data-every-site');
    const res = await admin.post(form.action, { form: { _svc_nonce: form.nonce, ...BLOG_FORM } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/svc-admin/settings?site=${blog.id}&saved=${blog.id}`);
    expect((await admin.get(`/svc-admin/settings?site=${blog.id}&saved=${blog.id}`)).text).toContain('Settings saved.');
    // Switching site keeps the query: the other site's page does not claim it was saved.
    expect((await admin.get(`/svc-admin/settings?site=${DEFAULT_SITE_ID}&saved=${blog.id}`)).text).not.toContain('Settings saved.');

    expect(await tk.kernel.options.get(`ip_blocklist:site:${blog.id}`)).toBe('198.51.100.7');
    expect(await tk.kernel.options.get(`privacy_level:site:${blog.id}`)).toBe('private_mode');
    // The default site keeps the documented names and its values.
    expect(await tk.kernel.options.get('ip_blocklist')).toBe('');
    expect(await tk.kernel.options.get('privacy_level')).toBe('cookie');
    expect(await tk.kernel.settings.values(DEFAULT_SITE_ID)).toMatchObject({ privacy_level: 'cookie', enable_do_not_track: false, custom_block_rules: '', user_role_blocklist: [] });
    expect(await tk.kernel.settings.values(blog.id)).toMatchObject({ privacy_level: 'private_mode', enable_do_not_track: true, custom_block_rules: '/private/', user_role_blocklist: ['administrator'] });
  });

  it('shows each site its own values, and saves the default site without touching the other', async () => {
    const blogPage = (await settingsForm(admin, blog.id)).html;
    expect(fieldBlock(blogPage, 'privacy_level')).toContain('<option value="private_mode" selected>');
    expect(fieldBlock(blogPage, 'ip_blocklist')).toContain('198.51.100.7</textarea>');
    const form = await settingsForm(admin, DEFAULT_SITE_ID);
    expect(form.html).toContain('<h1>Settings for ');
    expect(fieldBlock(form.html, 'privacy_level')).toContain('<option value="cookie" selected>');
    expect(fieldBlock(form.html, 'ip_blocklist')).not.toContain('198.51.100.7');
    const res = await admin.post(form.action, { form: { _svc_nonce: form.nonce, privacy_level: 'fingerprint', ip_blocklist: '192.0.2.1', enable_turbo_mode: '1' } });
    expect(res.headers.get('location')).toBe(`/svc-admin/settings?site=${DEFAULT_SITE_ID}&saved=${DEFAULT_SITE_ID}`);
    expect(await tk.kernel.options.get('privacy_level')).toBe('fingerprint');
    expect(await tk.kernel.options.get('ip_blocklist')).toBe('192.0.2.1');
    // An install-wide field saved on one site's page applies to every site.
    expect(await tk.kernel.settings.get('enable_turbo_mode', blog.id)).toBe(true);
    expect(await tk.kernel.settings.values(blog.id)).toMatchObject({ privacy_level: 'private_mode', ip_blocklist: '198.51.100.7', custom_block_rules: '/private/' });
    const again = await settingsForm(admin, DEFAULT_SITE_ID);
    await admin.post(again.action, { form: { _svc_nonce: again.nonce, privacy_level: 'cookie', ip_blocklist: '' } });
  });

  it('gives a site that saved nothing the defaults, not the default site\'s values', async () => {
    const shop = await tk.kernel.sites.add({ name: 'Shop', domain: 'shop.example', timezone: 'UTC' });
    await tk.kernel.settings.save({ custom_block_rules: 'everything' });
    expect(await tk.kernel.settings.values(shop.id)).toMatchObject({ privacy_level: 'cookie', custom_block_rules: '', ip_blocklist: '' });
    expect(await hit('https://shop.example/everything/', 'shop-visitor')).toBe('recorded');
    await tk.kernel.settings.save({ custom_block_rules: '' });
    await tk.kernel.sites.remove(shop.id);
  });

  it('drops a hit by the exclusions of its own site only', async () => {
    const blocked = { 'x-forwarded-for': '198.51.100.7' };
    expect(await hit('https://blog.example/', 'from-blocked-ip', blocked)).toBe('ip blocked');
    expect(await hit('https://www.example.com/', 'from-blocked-ip', blocked)).toBe('recorded');
    expect(await hit('https://blog.example/private/page/', 'rule-visitor')).toBe('blocked by custom rule');
    expect(await hit('https://www.example.com/private/page/', 'rule-visitor')).toBe('recorded');
    // A snippet naming the blog brings the blog's rules to any host.
    expect(await hit('https://www.example.com/private/again/', 'named-visitor', {}, { site: blog.id })).toBe('blocked by custom rule');
    expect(await hit('https://blog.example/dnt/', 'dnt-visitor', { dnt: '1' })).toBe('do not track');
    expect(await hit('https://www.example.com/dnt/', 'dnt-visitor', { dnt: '1' })).toBe('recorded');
    expect(await count(tk, 'statistics', 'site_id = ?', [DEFAULT_SITE_ID])).toBe(3);
    expect(await count(tk, 'statistics', 'site_id = ?', [blog.id])).toBe(0);
  });

  it('screens a site search with the exclusions of the site it names or whose page it comes from', async () => {
    const search = async (body: Record<string, unknown>) =>
      (await tk.client().post(`${tk.api}/track/search`, { json: { search_term: 'winter shoes', uid: 'searcher', ...body }, headers: { 'x-forwarded-for': '198.51.100.7', 'user-agent': CHROME } })).body
        .outcome as { stored: boolean; reason?: string };
    expect(await search({ site: blog.id })).toMatchObject({ stored: false, reason: 'excluded' });
    expect(await search({ url: 'https://blog.example/search/' })).toMatchObject({ stored: false, reason: 'excluded' });
    expect((await search({ url: 'https://www.example.com/search/' })).reason).not.toBe('excluded');
  });

  it('identifies the blog\'s visitors without a cookie, as its privacy level says', async () => {
    expect(await hit('https://blog.example/welcome/', 'client-made-uid')).toBe('recorded');
    const [row] = await tk.kernel.db.select<{ uid: string }>(`SELECT uid FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))} WHERE site_id = ?`, [blog.id]);
    expect(row!.uid).not.toBe('client-made-uid');
    expect(row!.uid).toMatch(/^[a-f0-9]{64}$/);
  });

  it('serves each site\'s script options from its own settings', async () => {
    expect((await embedOptions(tk)).options).toMatchObject({ privacy_level: 'cookie', cookieless: 0, track_url_change: 0, do_not_track: 0 });
    expect((await embedOptions(tk, `?site=${blog.id}`)).options).toMatchObject({ privacy_level: 'private_mode', cookieless: 1, track_url_change: 1, do_not_track: 1 });
  });

  it('removes a site\'s settings with the site, and keeps the default site\'s', async () => {
    await tk.kernel.sites.remove(blog.id);
    const names = (await tk.kernel.db.select<{ option_name: string }>(`SELECT option_name FROM ${tk.kernel.db.quote(tk.kernel.db.table('options'))}`)).map((r) => r.option_name);
    expect(names.filter((n) => n.includes(':site:'))).toEqual([]);
    for (const key of ['privacy_level', 'ip_blocklist', 'custom_block_rules', 'headless']) expect(names).toContain(key);
  });
});
