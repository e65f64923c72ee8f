/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SITE_ID, type Site } from '../../../core';
import { browserSuite, describeBrowser, signedInPage } from '../../../test/helpers/browser';
import { createTestKernel } from '../../../test/helpers/test-kernel';

const SHOTS = path.resolve(__dirname, '..', '..', '..', 'test-output');
const STEP = 15_000;
const PHONE_390 = { width: 390, height: 844 };

describeBrowser('the settings page of one site among two, in Chromium', () => {
  let blog: Site;
  const b = browserSuite(
    async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      const tk = await createTestKernel({ plugins: ['tracking'] });
      blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example', timezone: 'UTC' });
      return tk;
    },
    { device: { viewport: { width: 1366, height: 900 } }, landing: '**/svc-admin/**', timeout: STEP, consoleErrors: true },
  );
  const shot = (page: typeof b.page, name: string) => page.screenshot({ path: path.join(SHOTS, `site-settings-${name}.png`), fullPage: true, timeout: STEP });
  const noSideScroll = (page: typeof b.page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('saves the exclusions and privacy of the site chosen in the header, and shows the other site its own', async () => {
    await b.page.goto(`/svc-admin/settings?site=${blog.id}`);
    await expect(b.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Settings for Blog');
    // The code to copy is the blog's own snippet.
    await expect(b.page.getByLabel('Tracking code').inputValue()).resolves.toContain(`/svc/embed.js?site=${blog.id}`);
    await b.page.getByLabel('Visitor identification').selectOption({ label: 'Cookieless' });
    await b.page.getByLabel('Blocked IP addresses').fill('198.51.100.7');
    await Promise.all([b.page.waitForURL(`**/svc-admin/settings?site=${blog.id}&saved=${blog.id}`), b.page.getByRole('button', { name: 'Save settings' }).click()]);
    await expect(b.page.getByText('Settings saved.').isVisible()).resolves.toBe(true);
    await expect(b.page.getByLabel('Blocked IP addresses').inputValue()).resolves.toBe('198.51.100.7');
    await expect(b.page.locator('[data-key="headless"] [data-every-site]').isVisible()).resolves.toBe(true);
    await shot(b.page, 'blog-1366');

    const first = (await b.tk.kernel.sites.default()).name;
    await Promise.all([b.page.waitForURL(`**/svc-admin/settings?site=${DEFAULT_SITE_ID}**`), b.page.getByRole('combobox', { name: 'Site' }).selectOption({ label: first })]);
    await expect(b.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Settings for ${first}`);
    // The notice was the blog's: the page of the other site does not repeat it.
    await expect(b.page.getByText('Settings saved.').count()).resolves.toBe(0);
    await expect(b.page.getByLabel('Blocked IP addresses').inputValue()).resolves.toBe('');
    await expect(b.page.getByLabel('Visitor identification').inputValue()).resolves.toBe('cookie');
    await shot(b.page, 'default-1366');
    expect(await b.tk.kernel.settings.values(blog.id)).toMatchObject({ privacy_level: 'private_mode', ip_blocklist: '198.51.100.7' });
    expect(await b.tk.kernel.settings.values(DEFAULT_SITE_ID)).toMatchObject({ privacy_level: 'cookie', ip_blocklist: '' });
    expect(b.problems).toEqual([]);
  }, 60_000);

  it('fits a 390 px phone', async () => {
    const { context, page } = await signedInPage(b.browser, b.tk.url, b.tk.admin, { viewport: PHONE_390, timeout: STEP, landing: '**/svc-admin/**' });
    try {
      await page.goto(`/svc-admin/settings?site=${blog.id}`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Settings for Blog');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'blog-390');
    } finally {
      await context.close();
    }
  }, 60_000);
});
