/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { PHONE, browserSuite, describeBrowser } from '../helpers/browser';
import { createTestKernel } from '../helpers/test-kernel';

const SHOTS = path.resolve(__dirname, '..', '..', 'test-output');
const STEP = 15_000;

describeBrowser('admin shell in Chromium on a phone', () => {
  const b = browserSuite(
    async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      return createTestKernel();
    },
    { signIn: false, device: PHONE, timeout: STEP, consoleErrors: true },
  );
  const noSideScroll = () => b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const shot = (name: string) => b.page.screenshot({ path: path.join(SHOTS, `admin-${name}.png`), fullPage: true, timeout: STEP });

  it('signs in from a protected page and comes back to it', async () => {
    await b.page.goto('/svc-admin/settings');
    expect(new URL(b.page.url()).pathname).toBe('/svc-admin/login');
    await b.page.getByLabel('User name').fill(b.tk.admin.login);
    await b.page.getByLabel('Password').fill(b.tk.admin.password);
    await Promise.all([b.page.waitForURL('**/svc-admin/settings'), b.page.getByRole('button', { name: 'Sign in' }).click()]);
    await expect(b.page.getByRole('heading', { name: 'Settings' }).isVisible()).resolves.toBe(true);
    expect(await noSideScroll()).toBe(true);
    for (const name of ['Settings', 'Plugins', 'Users', 'Account']) {
      const box = await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.viewport.width);
    }
    await shot('settings');
  }, 60_000);

  it('refuses a bad value next to its field and saves nothing', async () => {
    await b.page.getByLabel('Visitor identification').selectOption('private_mode');
    await b.page.getByLabel('Blocked IP addresses').fill('192.168.0.0/16\nnot-an-ip');
    await Promise.all([b.page.waitForLoadState('domcontentloaded'), b.page.getByRole('button', { name: 'Save settings' }).click()]);
    const error = b.page.locator('[data-key="ip_blocklist"] .field-error');
    await expect(error.textContent()).resolves.toContain('Line 2 (not-an-ip): not an IP address or CIDR range');
    await expect(error.isVisible()).resolves.toBe(true);
    await expect(b.page.getByText('Nothing was saved').isVisible()).resolves.toBe(true);
    expect(await noSideScroll()).toBe(true);
    await shot('settings-error');
    b.tk.kernel.options.invalidate();
    expect(await b.tk.kernel.options.get('privacy_level')).toBeUndefined();
    expect(await b.tk.kernel.options.get('ip_blocklist')).toBeUndefined();
  }, 60_000);

  it('saves once the value is corrected', async () => {
    await b.page.getByLabel('Blocked IP addresses').fill('192.168.0.0/16');
    await b.page.getByLabel('Honour Do Not Track').check();
    await Promise.all([b.page.waitForURL('**/svc-admin/settings?saved=1'), b.page.getByRole('button', { name: 'Save settings' }).click()]);
    await expect(b.page.getByText('Settings saved.').isVisible()).resolves.toBe(true);
    b.tk.kernel.options.invalidate();
    expect(await b.tk.kernel.settings.get('privacy_level')).toBe('private_mode');
    expect(await b.tk.kernel.settings.get('ip_blocklist')).toBe('192.168.0.0/16');
    expect(await b.tk.kernel.settings.get('enable_do_not_track')).toBe(true);
  }, 60_000);

  it('creates an application password, shows it once, and revokes it', async () => {
    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await b.page.waitForURL('**/svc-admin/account');
    await b.page.getByLabel('New application password name').fill('phone test');
    await Promise.all([b.page.waitForLoadState('domcontentloaded'), b.page.getByRole('button', { name: 'Create application password' }).click()]);
    const secret = (await b.page.getByTestId('new-app-password').textContent())!.trim();
    expect(secret).toMatch(/^([A-Za-z0-9]{4} ){7}[A-Za-z0-9]{4}$/);
    expect(await noSideScroll()).toBe(true);
    await shot('account');
    expect((await b.tk.client().withBasic('admin', secret).get(`${b.tk.api}/users/me/application-passwords`)).status).toBe(200);

    await b.page.goto('/svc-admin/account');
    await expect(b.page.getByTestId('new-app-password').count()).resolves.toBe(0);
    const questions: string[] = [];
    b.page.once('dialog', (d) => void (questions.push(d.message()), d.dismiss()));
    await b.page.getByRole('button', { name: 'Revoke phone test' }).click();
    expect(questions).toEqual(['Revoke the application password “phone test”? Programs using it stop working at once.']);
    expect(new URL(b.page.url()).search).toBe('');
    expect((await b.tk.client().withBasic('admin', secret).get(`${b.tk.api}/users/me/application-passwords`)).status).toBe(200);
    b.page.once('dialog', (d) => void d.accept());
    await Promise.all([b.page.waitForURL('**/svc-admin/account?revoked=1'), b.page.getByRole('button', { name: 'Revoke phone test' }).click()]);
    await expect(b.page.getByText('The application password was revoked.').isVisible()).resolves.toBe(true);
    expect((await b.tk.client().withBasic('admin', secret).get(`${b.tk.api}/users/me/application-passwords`)).status).toBe(401);
  }, 60_000);

  it('changes your own password, every problem shown at once next to its field', async () => {
    await b.page.goto('/svc-admin/account');
    await b.page.getByLabel('New password', { exact: true }).fill('short');
    await b.page.getByLabel('New password again').fill('other');
    await Promise.all([b.page.waitForLoadState('domcontentloaded'), b.page.getByRole('button', { name: 'Change password' }).click()]);
    await expect(b.page.locator('#field-current_password-error').textContent()).resolves.toBe('Type your current password.');
    await expect(b.page.locator('#field-new_password-error').textContent()).resolves.toBe('Use at least 8 characters.');
    expect(await noSideScroll()).toBe(true);
    await shot('account-password-errors');
    await b.page.getByLabel('Current password').fill(b.tk.admin.password);
    await b.page.getByLabel('New password', { exact: true }).fill('a phone-typed secret');
    await b.page.getByLabel('New password again').fill('a phone-typed secret');
    await Promise.all([b.page.waitForURL('**/svc-admin/account?done=password'), b.page.getByRole('button', { name: 'Change password' }).click()]);
    await expect(b.page.getByText('Your password was changed.').isVisible()).resolves.toBe(true);
    expect(await b.tk.kernel.users.authenticate('admin', 'a phone-typed secret')).not.toBeNull();
  }, 60_000);

  it('adds a user on the Users page and removes them after a confirmation', async () => {
    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await b.page.waitForURL('**/svc-admin/users');
    await b.page.getByLabel('User name').fill('phone-editor');
    await b.page.getByLabel('E-mail address (optional)').fill('editor@example.org');
    await Promise.all([b.page.waitForLoadState('domcontentloaded'), b.page.getByRole('button', { name: 'Add user' }).click()]);
    const generated = (await b.page.getByTestId('generated-password').textContent())!.trim();
    expect(await b.tk.kernel.users.authenticate('phone-editor', generated)).toMatchObject({ role: 'editor' });
    expect(await noSideScroll()).toBe(true);
    await shot('users');
    await b.page.goto('/svc-admin/users');
    await b.page.getByText('Manage phone-editor').click();
    b.page.once('dialog', (d) => void d.accept());
    await Promise.all([b.page.waitForURL('**/svc-admin/users?done=removed'), b.page.getByRole('button', { name: 'Remove phone-editor' }).click()]);
    expect(await b.tk.kernel.users.findByLogin('phone-editor')).toBeNull();
  }, 60_000);

  it('lists the plugins and signs out', async () => {
    await b.page.goto('/svc-admin/plugins');
    await expect(b.page.getByRole('heading', { name: 'Plugins' }).isVisible()).resolves.toBe(true);
    expect(await noSideScroll()).toBe(true);
    await Promise.all([b.page.waitForURL('**/svc-admin/login'), b.page.getByRole('button', { name: 'Sign out' }).click()]);
    await b.page.goto('/svc-admin/account');
    expect(new URL(b.page.url()).pathname).toBe('/svc-admin/login');
    // The refused forms are answered with 400 on purpose; nothing else may fail, no script error, no CSP violation.
    expect(b.problems).toEqual(Array(2).fill('Failed to load resource: the server responded with a status of 400 (Bad Request)'));
  }, 60_000);
});
