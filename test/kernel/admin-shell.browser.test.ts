/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PHONE, describeBrowser, launchBrowser } from '../helpers/browser';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const SHOTS = path.resolve(__dirname, '..', '..', 'test-output');
const STEP = 15_000;

describeBrowser('admin shell in Chromium on a phone', () => {
  let tk: TestKernel;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const noSideScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `admin-${name}.png`), fullPage: true, timeout: STEP });

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    tk = await createTestKernel();
    browser = await launchBrowser();
    context = await browser.newContext({ ...PHONE, baseURL: tk.url });
    context.setDefaultTimeout(STEP);
    context.setDefaultNavigationTimeout(STEP);
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  }, 60_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  it('signs in from a protected page and comes back to it', async () => {
    await page.goto('/svc-admin/settings');
    expect(new URL(page.url()).pathname).toBe('/svc-admin/login');
    await page.getByLabel('User name').fill(tk.admin.login);
    await page.getByLabel('Password').fill(tk.admin.password);
    await Promise.all([page.waitForURL('**/svc-admin/settings'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await expect(page.getByRole('heading', { name: 'Settings' }).isVisible()).resolves.toBe(true);
    expect(await noSideScroll()).toBe(true);
    for (const name of ['Settings', 'Plugins', 'Users', 'Account']) {
      const box = await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.viewport.width);
    }
    await shot('settings');
  }, 60_000);

  it('refuses a bad value next to its field and saves nothing', async () => {
    await page.getByLabel('Visitor identification').selectOption('private_mode');
    await page.getByLabel('Blocked IP addresses').fill('192.168.0.0/16\nnot-an-ip');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Save settings' }).click()]);
    const error = page.locator('[data-key="ip_blocklist"] .field-error');
    await expect(error.textContent()).resolves.toContain('Line 2 (not-an-ip): not an IP address or CIDR range');
    await expect(error.isVisible()).resolves.toBe(true);
    await expect(page.getByText('Nothing was saved').isVisible()).resolves.toBe(true);
    expect(await noSideScroll()).toBe(true);
    await shot('settings-error');
    tk.kernel.options.invalidate();
    expect(await tk.kernel.options.get('privacy_level')).toBeUndefined();
    expect(await tk.kernel.options.get('ip_blocklist')).toBeUndefined();
  }, 60_000);

  it('saves once the value is corrected', async () => {
    await page.getByLabel('Blocked IP addresses').fill('192.168.0.0/16');
    await page.getByLabel('Honour Do Not Track').check();
    await Promise.all([page.waitForURL('**/svc-admin/settings?saved=1'), page.getByRole('button', { name: 'Save settings' }).click()]);
    await expect(page.getByText('Settings saved.').isVisible()).resolves.toBe(true);
    tk.kernel.options.invalidate();
    expect(await tk.kernel.settings.get('privacy_level')).toBe('private_mode');
    expect(await tk.kernel.settings.get('ip_blocklist')).toBe('192.168.0.0/16');
    expect(await tk.kernel.settings.get('enable_do_not_track')).toBe(true);
  }, 60_000);

  it('creates an application password, shows it once, and revokes it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/svc-admin/account');
    await page.getByLabel('New application password name').fill('phone test');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Create application password' }).click()]);
    const secret = (await page.getByTestId('new-app-password').textContent())!.trim();
    expect(secret).toMatch(/^([A-Za-z0-9]{4} ){7}[A-Za-z0-9]{4}$/);
    expect(await noSideScroll()).toBe(true);
    await shot('account');
    expect((await tk.client().withBasic('admin', secret).get(`${tk.api}/users/me/application-passwords`)).status).toBe(200);

    await page.goto('/svc-admin/account');
    await expect(page.getByTestId('new-app-password').count()).resolves.toBe(0);
    const questions: string[] = [];
    page.once('dialog', (d) => void (questions.push(d.message()), d.dismiss()));
    await page.getByRole('button', { name: 'Revoke phone test' }).click();
    expect(questions).toEqual(['Revoke the application password “phone test”? Programs using it stop working at once.']);
    expect(new URL(page.url()).search).toBe('');
    expect((await tk.client().withBasic('admin', secret).get(`${tk.api}/users/me/application-passwords`)).status).toBe(200);
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL('**/svc-admin/account?revoked=1'), page.getByRole('button', { name: 'Revoke phone test' }).click()]);
    await expect(page.getByText('The application password was revoked.').isVisible()).resolves.toBe(true);
    expect((await tk.client().withBasic('admin', secret).get(`${tk.api}/users/me/application-passwords`)).status).toBe(401);
  }, 60_000);

  it('changes your own password, every problem shown at once next to its field', async () => {
    await page.goto('/svc-admin/account');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('other');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Change password' }).click()]);
    await expect(page.locator('#field-current_password-error').textContent()).resolves.toBe('Type your current password.');
    await expect(page.locator('#field-new_password-error').textContent()).resolves.toBe('Use at least 8 characters.');
    expect(await noSideScroll()).toBe(true);
    await shot('account-password-errors');
    await page.getByLabel('Current password').fill(tk.admin.password);
    await page.getByLabel('New password', { exact: true }).fill('a phone-typed secret');
    await page.getByLabel('New password again').fill('a phone-typed secret');
    await Promise.all([page.waitForURL('**/svc-admin/account?done=password'), page.getByRole('button', { name: 'Change password' }).click()]);
    await expect(page.getByText('Your password was changed.').isVisible()).resolves.toBe(true);
    expect(await tk.kernel.users.authenticate('admin', 'a phone-typed secret')).not.toBeNull();
  }, 60_000);

  it('adds a user on the Users page and removes them after a confirmation', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/svc-admin/users');
    await page.getByLabel('User name').fill('phone-editor');
    await page.getByLabel('E-mail address (optional)').fill('editor@example.org');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Add user' }).click()]);
    const generated = (await page.getByTestId('generated-password').textContent())!.trim();
    expect(await tk.kernel.users.authenticate('phone-editor', generated)).toMatchObject({ role: 'editor' });
    expect(await noSideScroll()).toBe(true);
    await shot('users');
    await page.goto('/svc-admin/users');
    await page.getByText('Manage phone-editor').click();
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL('**/svc-admin/users?done=removed'), page.getByRole('button', { name: 'Remove phone-editor' }).click()]);
    expect(await tk.kernel.users.findByLogin('phone-editor')).toBeNull();
  }, 60_000);

  it('lists the plugins and signs out', async () => {
    await page.goto('/svc-admin/plugins');
    await expect(page.getByRole('heading', { name: 'Plugins' }).isVisible()).resolves.toBe(true);
    expect(await noSideScroll()).toBe(true);
    await Promise.all([page.waitForURL('**/svc-admin/login'), page.getByRole('button', { name: 'Sign out' }).click()]);
    await page.goto('/svc-admin/account');
    expect(new URL(page.url()).pathname).toBe('/svc-admin/login');
    // The refused forms are answered with 400 on purpose; nothing else may fail, no script error, no CSP violation.
    expect(problems).toEqual(Array(2).fill('Failed to load resource: the server responded with a status of 400 (Bad Request)'));
  }, 60_000);
});
