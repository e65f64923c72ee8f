/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { browserSuite, describeBrowser, signedInPage } from '../../../test/helpers/browser';
import { createTestKernel } from '../../../test/helpers/test-kernel';

const SHOTS = path.resolve(__dirname, '..', '..', '..', 'test-output');
const STEP = 15_000;
const PHONE_390 = { width: 390, height: 844 };

describeBrowser('the Sites page and the site switcher in Chromium', () => {
  const b = browserSuite(
    async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      return createTestKernel();
    },
    { device: { viewport: { width: 1366, height: 900 } }, landing: '**/svc-admin/**', timeout: STEP, consoleErrors: true },
  );
  const shot = (page: typeof b.page, name: string) => page.screenshot({ path: path.join(SHOTS, `sites-${name}.png`), fullPage: true, timeout: STEP });
  const noSideScroll = (page: typeof b.page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('adds a site, refusing a taken domain next to its field', async () => {
    await b.page.goto('/svc-admin/sites');
    const form = b.page.locator('form[aria-labelledby="add-site"]');
    await form.getByLabel('Name').fill('Shop');
    await form.getByLabel('Domain', { exact: true }).fill('shop.example');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await Promise.all([b.page.waitForURL('**/svc-admin/sites?done=added'), form.getByRole('button', { name: 'Add site' }).click()]);
    await expect(b.page.getByText('The site was added.').isVisible()).resolves.toBe(true);
    await form.getByLabel('Name').fill('Copy');
    await form.getByLabel('Domain', { exact: true }).fill('www.shop.example');
    await Promise.all([b.page.waitForLoadState('domcontentloaded'), form.getByRole('button', { name: 'Add site' }).click()]);
    await expect(b.page.locator('#new-site-domain-error').textContent()).resolves.toBe('Already used by the site Shop (shop.example).');
    await shot(b.page, 'refused-1366');
    expect(await b.tk.kernel.sites.list()).toHaveLength(2);
    // The refused form answered 400 on purpose.
    expect(b.problems.splice(0)).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  }, 60_000);

  it('switches the site from the header and names it in the title', async () => {
    await b.page.goto('/svc-admin/sites');
    await expect(b.page.title()).resolves.toBe(`Sites · ${new URL(b.tk.url).host} · svc`);
    await Promise.all([b.page.waitForURL('**/svc-admin/sites?site=2'), b.page.getByRole('combobox', { name: 'Site' }).selectOption({ label: 'Shop' })]);
    await expect(b.page.title()).resolves.toBe('Sites · Shop · svc');
    await b.page.goto('/svc-admin/account');
    await expect(b.page.title()).resolves.toBe('Account · Shop · svc');
    await shot(b.page, 'switcher-1366');
    expect(b.problems).toEqual([]);
  }, 60_000);

  it('fits a 390 px phone: the header, the Sites page and the roles per site', async () => {
    await b.tk.kernel.users.create({ login: 'viewer', role: 'editor', password: 'long enough password' });
    const { context, page } = await signedInPage(b.browser, b.tk.url, b.tk.admin, { viewport: PHONE_390, timeout: STEP, landing: '**/svc-admin/**' });
    try {
      await page.goto('/svc-admin/sites');
      expect(await noSideScroll(page)).toBe(true);
      const box = await page.getByRole('combobox', { name: 'Site' }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE_390.width);
      await page.getByText('Edit Shop').click();
      await shot(page, 'sites-390');
      await page.goto('/svc-admin/users');
      await page.getByText('Manage viewer').click();
      await page.locator('select[name="site_2"]').selectOption('viewer');
      await Promise.all([page.waitForURL('**/svc-admin/users?done=sites'), page.getByRole('button', { name: 'Save site roles' }).click()]);
      await expect(page.getByText('Shop (viewer)').isVisible()).resolves.toBe(true);
      expect(await noSideScroll(page)).toBe(true);
      await page.getByText('Manage viewer').click();
      await shot(page, 'users-390');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('removes a site after the question and the ticked box', async () => {
    await b.page.goto('/svc-admin/sites');
    const questions: string[] = [];
    b.page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await b.page.getByText('Edit Shop').click();
    const row = b.page.locator('form.remove-site');
    await row.getByLabel('Delete every hit, goal, report and share link of Shop').check();
    await Promise.all([b.page.waitForURL('**/svc-admin/sites?done=removed'), row.getByRole('button', { name: 'Remove Shop' }).click()]);
    expect(questions).toEqual(['Remove the site Shop and delete all its data? This cannot be undone.']);
    expect(await b.tk.kernel.sites.list()).toHaveLength(1);
    await shot(b.page, 'removed-1366');
  }, 60_000);
});
