import type { HttpClient } from '../helpers/http-client';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

/** The `_svc_nonce` of the first form on an admin page. */
async function formNonce(client: HttpClient, path: string): Promise<string> {
  const page = await client.get(path);
  const nonce = /name="_svc_nonce" value="([a-f0-9]+)"/.exec(page.text)?.[1];
  if (!nonce) throw new Error(`no nonce on ${path} (${page.status})`);
  return nonce;
}

/** The HTML of one settings field block. */
const fieldBlock = (html: string, key: string) => new RegExp(`<div class="field[^"]*" data-key="${key}">[\\s\\S]*?\\n</div>`).exec(html)?.[0] ?? '';

const VALID_FORM = {
  privacy_level: 'fingerprint',
  enable_do_not_track: '1',
  track_url_change: '1',
  custom_block_rules: ' /bot/i \r\n\r\n  <script>alert(1)</script> ',
  ip_blocklist: '10.0.0.0/8\n2001:db8::1',
  user_role_blocklist: ['administrator', 'editor'],
  headless: '1',
};

describe('admin shell', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let editor: HttpClient;
  beforeAll(async () => {
    tk = await createTestKernel();
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
    admin = await tk.signedIn();
    editor = await tk.signedIn('ed', 'editor-password');
  });
  afterAll(() => tk?.close());

  describe('menu and landing page', () => {
    it('shows the core menu items the user may open', async () => {
      const adminPage = (await admin.get('/svc-admin/account')).text;
      expect(adminPage).toMatch(/<a href="\/svc-admin\/settings"[^>]*>Settings<\/a>[\s\S]*<a href="\/svc-admin\/plugins"[^>]*>Plugins<\/a>[\s\S]*<a href="\/svc-admin\/account"[^>]*>Account<\/a>/);
      const editorPage = (await editor.get('/svc-admin/account')).text;
      expect(editorPage).toContain('>Account</a>');
      expect(editorPage).not.toContain('>Settings</a>');
      expect(editorPage).not.toContain('>Plugins</a>');
    });

    it('sends the start page to the first menu item, and anonymous visitors to the login form', async () => {
      expect((await admin.get('/svc-admin/')).headers.get('location')).toBe('/svc-admin/settings');
      expect((await editor.get('/svc-admin/')).headers.get('location')).toBe('/svc-admin/account');
      const anonymous = await tk.client().get('/svc-admin/settings');
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get('location')).toBe('/svc-admin/login?redirect_to=%2Fsvc-admin%2Fsettings');
    });
  });

  describe('settings page', () => {
    it('renders the tracking settings grouped by section, with the values stored', async () => {
      const page = await admin.get('/svc-admin/settings');
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/<legend>Tracking<\/legend>[\s\S]*data-key="privacy_level"[\s\S]*<legend>Exclusions<\/legend>[\s\S]*data-key="ip_blocklist"/);
      for (const key of ['privacy_level', 'enable_do_not_track', 'enable_turbo_mode', 'track_url_change', 'filtering_by_domain', 'custom_block_rules', 'ip_blocklist', 'user_role_blocklist', 'ghost_mode', 'headless', 'combine_vars_and_script']) {
        expect(page.text).toContain(`data-key="${key}"`);
      }
      expect(fieldBlock(page.text, 'privacy_level')).toContain('<option value="cookie" selected>');
      // A creator-tier setting is not offered on the free license.
      expect(page.text).not.toContain('data-key="track_external_links"');
    });

    it('refuses to open for users without manage_options', async () => {
      const page = await editor.get('/svc-admin/settings');
      expect(page.status).toBe(403);
      expect(page.text).toContain('You are not allowed to open this page.');
      const post = await editor.post('/svc-admin/settings', { form: { _svc_nonce: await formNonce(editor, '/svc-admin/account'), ...VALID_FORM } });
      expect(post.status).toBe(403);
      expect(await tk.kernel.options.get('privacy_level')).toBeUndefined();
    });

    it('refuses a form without a valid nonce', async () => {
      const res = await admin.post('/svc-admin/settings', { form: { _svc_nonce: 'deadbeef', ...VALID_FORM } });
      expect(res.status).toBe(400);
      expect(res.text).toContain('This form has expired');
      expect(await tk.kernel.options.get('privacy_level')).toBeUndefined();
    });

    it('refuses a bad value with a message next to the field and saves nothing', async () => {
      const res = await admin.post('/svc-admin/settings', {
        form: { _svc_nonce: await formNonce(admin, '/svc-admin/settings'), ...VALID_FORM, ip_blocklist: '10.0.0.1\n999.1.1.1' },
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Nothing was saved');
      const block = fieldBlock(res.text, 'ip_blocklist');
      expect(block).toMatch(/<p class="field-error" id="setting-ip_blocklist-error" role="alert">Line 2 \(999\.1\.1\.1\): not an IP address or CIDR range<\/p>/);
      expect(block).toContain('aria-invalid="true"');
      expect(block).toContain('999.1.1.1</textarea>');
      // The other submitted values are kept in the form, but none is stored.
      expect(fieldBlock(res.text, 'privacy_level')).toContain('<option value="fingerprint" selected>');
      expect(fieldBlock(res.text, 'privacy_level')).not.toContain('field-error');
      for (const key of Object.keys(VALID_FORM)) expect(await tk.kernel.options.get(key)).toBeUndefined();
    });

    it('refuses each kind of bad value', async () => {
      const cases: Array<[Record<string, string | string[]>, string, RegExp]> = [
        [{ privacy_level: 'everything' }, 'privacy_level', /Must be one of: cookie, private_mode, fingerprint\./],
        [{ enable_turbo_mode: 'maybe' }, 'enable_turbo_mode', /Must be on or off\./],
        [{ headless: ['1', '1'] }, 'headless', /Must be on or off\./],
        [{ custom_block_rules: '/(unclosed/' }, 'custom_block_rules', /Line 1 .*invalid regex/],
        [{ custom_block_rules: '/x/g' }, 'custom_block_rules', /unsupported regex flag g/],
        [{ user_role_blocklist: ['editor', 'svc_hacker'] }, 'user_role_blocklist', /Unknown role: svc_hacker/],
      ];
      for (const [override, key, message] of cases) {
        const res = await admin.post('/svc-admin/settings', {
          form: { _svc_nonce: await formNonce(admin, '/svc-admin/settings'), ...VALID_FORM, ...override },
        });
        expect(res.status).toBe(400);
        expect(fieldBlock(res.text, key)).toMatch(message);
      }
      const stray = await admin.post('/svc-admin/settings', {
        form: { _svc_nonce: await formNonce(admin, '/svc-admin/settings'), ...VALID_FORM, track_external_links: '1', evil: 'x' },
      });
      expect(stray.status).toBe(400);
      expect(stray.text).toContain('track_external_links: This is not a setting.');
      expect(stray.text).toContain('evil: This is not a setting.');
      for (const key of Object.keys(VALID_FORM)) expect(await tk.kernel.options.get(key)).toBeUndefined();
    });

    it('saves a valid form: checked boxes on, unchecked off, lines normalised', async () => {
      const res = await admin.post('/svc-admin/settings', { form: { _svc_nonce: await formNonce(admin, '/svc-admin/settings'), ...VALID_FORM } });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/svc-admin/settings?saved=1');
      expect(await tk.kernel.settings.values()).toMatchObject({
        privacy_level: 'fingerprint',
        enable_do_not_track: true,
        enable_turbo_mode: false,
        track_url_change: true,
        filtering_by_domain: false,
        custom_block_rules: '/bot/i\n<script>alert(1)</script>',
        ip_blocklist: '10.0.0.0/8\n2001:db8::1',
        user_role_blocklist: ['administrator', 'editor'],
        ghost_mode: false,
        headless: true,
        combine_vars_and_script: false,
      });
      const page = await admin.get('/svc-admin/settings?saved=1');
      expect(page.text).toContain('Settings saved.');
      expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.text).not.toContain('<script>');
      expect(fieldBlock(page.text, 'enable_do_not_track')).toContain('checked');
      expect(fieldBlock(page.text, 'ghost_mode')).not.toContain('checked');

      const off = await admin.post('/svc-admin/settings', {
        form: { _svc_nonce: await formNonce(admin, '/svc-admin/settings'), privacy_level: 'cookie' },
      });
      expect(off.status).toBe(302);
      expect(await tk.kernel.settings.get('headless')).toBe(false);
      expect(await tk.kernel.settings.get('user_role_blocklist')).toEqual([]);
      expect(await tk.kernel.settings.get('ip_blocklist')).toBe('');
    });
  });

  describe('account page', () => {
    it('creates an application password, shows it once, and lists it with its last use', async () => {
      expect((await admin.get('/svc-admin/account')).text).toContain('No application passwords yet.');
      const created = await admin.post('/svc-admin/account', {
        form: { _svc_nonce: await formNonce(admin, '/svc-admin/account'), action: 'create', name: 'Laptop <script>' },
      });
      expect(created.status).toBe(200);
      expect(created.headers.get('cache-control')).toBe('no-store');
      const secret = /data-testid="new-app-password">([A-Za-z0-9 ]+)</.exec(created.text)?.[1];
      expect(secret).toMatch(/^([A-Za-z0-9]{4} ){7}[A-Za-z0-9]{4}$/);
      expect(created.text).toContain('Laptop &lt;script&gt;');

      const listed = await admin.get('/svc-admin/account');
      expect(listed.text).not.toContain(secret!);
      expect(listed.text).toMatch(/<td data-label="Name">Laptop &lt;script&gt;<\/td>\s*<td data-label="Created">[\d-]+ [\d:]+<\/td>\s*<td data-label="Last used">never<\/td>/);

      const basic = tk.client().withBasic('admin', secret!);
      expect((await basic.get(`${tk.api}/users/me/application-passwords`)).status).toBe(200);
      expect((await admin.get('/svc-admin/account')).text).toMatch(
        /<td data-label="Name">Laptop &lt;script&gt;<\/td>\s*<td data-label="Created">[\d-]+ [\d:]+<\/td>\s*<td data-label="Last used">[\d-]+ [\d:]+<\/td>\s*<td data-label="Last address">127\.0\.0\.1<\/td>/,
      );
    });

    it('refuses an empty name next to the field', async () => {
      const before = (await tk.kernel.appPasswords.list(1)).length;
      const res = await admin.post('/svc-admin/account', { form: { _svc_nonce: await formNonce(admin, '/svc-admin/account'), action: 'create', name: '   ' } });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/<p class="field-error" id="app-password-name-error" role="alert">Give the password a name/);
      expect(await tk.kernel.appPasswords.list(1)).toHaveLength(before);
    });

    it('revokes one of the user’s own passwords, not another user’s', async () => {
      const edUser = (await tk.kernel.users.findByLogin('ed'))!;
      const theirs = await tk.kernel.appPasswords.create(edUser, 'ed-ci');
      const mine = await tk.kernel.appPasswords.create((await tk.kernel.users.findByLogin('admin'))!, 'to-revoke');
      const notMine = await admin.post('/svc-admin/account', {
        form: { _svc_nonce: await formNonce(admin, '/svc-admin/account'), action: 'revoke', uuid: theirs.uuid },
      });
      expect(notMine.status).toBe(404);
      expect(notMine.text).toContain('That application password does not exist');
      expect((await tk.client().withBasic('ed', theirs.password).get(`${tk.api}/users/me/application-passwords`)).status).toBe(200);

      const res = await admin.post('/svc-admin/account', {
        form: { _svc_nonce: await formNonce(admin, '/svc-admin/account'), action: 'revoke', uuid: mine.uuid },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/svc-admin/account?revoked=1');
      expect((await admin.get('/svc-admin/account?revoked=1')).text).toContain('The application password was revoked.');
      expect((await tk.client().withBasic('admin', mine.password).get(`${tk.api}/users/me/application-passwords`)).status).toBe(401);
    });

    it('refuses an unknown form action and a missing nonce', async () => {
      const unknown = await admin.post('/svc-admin/account', { form: { _svc_nonce: await formNonce(admin, '/svc-admin/account'), action: 'explode' } });
      expect(unknown.status).toBe(400);
      const noNonce = await editor.post('/svc-admin/account', { form: { action: 'create', name: 'x' } });
      expect(noNonce.status).toBe(400);
      expect(await tk.kernel.appPasswords.list((await tk.kernel.users.findByLogin('ed'))!.id)).toHaveLength(1);
    });
  });

  describe('security headers', () => {
    it('sends a strict CSP and the usual headers on pages and the API, and a safe session cookie', async () => {
      const client = tk.client();
      const login = await client.post('/svc-admin/login', { form: { log: 'admin', pwd: tk.admin.password } });
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!;
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).not.toMatch(/; Secure/i);
      for (const res of [await client.get('/svc-admin/settings'), await client.get(`${tk.api}/nonce`), await tk.client().get(`${tk.api}/nope`), await tk.client().get('/nowhere')]) {
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'self'");
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
        expect(res.headers.get('x-powered-by')).toBeNull();
        expect(res.headers.get('x-request-id')).toBeTruthy();
        expect(res.headers.get('strict-transport-security')).toBeNull();
      }
      const html = (await client.get('/svc-admin/account')).text;
      // Scripts come from files of the site only, never inline.
      expect(html.match(/<script[^>]*>/gi)).toEqual([expect.stringMatching(/^<script src="\/svc\/assets\/admin\.js\?v=[0-9a-f]+" defer>$/)]);
      expect(html).not.toMatch(/ on[a-z]+="/i);
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    });

    it('answers unknown admin pages with an HTML 404 in the layout', async () => {
      const res = await admin.get('/svc-admin/no-such-page');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('This page does not exist.');
    });
  });
});
