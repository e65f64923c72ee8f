/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../../core';
import { describeBrowser, launchBrowser, signedInPage } from '../../../test/helpers/browser';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

const STEP = 15_000;
const quiet = { out: () => undefined, err: () => undefined, progress: () => undefined };

describeBrowser('the share links form does nothing by accident', () => {
  let tk: TestKernel;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const activeLinks = async () => (await tk.kernel.db.select(`SELECT token FROM ${tk.kernel.db.quote(tk.kernel.db.table('share_tokens'))}`)).length;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking', 'sources', 'reports', 'story'], env: { SVC_LICENSE: 'creator' }, clock: new ManualClock(Date.now()) });
    expect(await tk.kernel.commands.get('demo')!.run(['--days', '7', '--visitors', '10', '--seed', '4'], quiet)).toBe(0);
    browser = await launchBrowser();
    ({ context, page } = await signedInPage(browser, tk.url, tk.admin, { timeout: STEP }));
  }, 90_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  it('makes no link from an empty form, and says why next to the pages', async () => {
    await page.goto('/svc-admin/share');
    await page.locator('[data-filters]').fill('');
    await page.locator('[data-view-url]').fill('');
    for (const box of await page.locator('input[name=tabs]').all()) await box.uncheck();
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Create link' }).click()]);
    await expect(page.locator('#error-tabs').textContent()).resolves.toBe('Tick at least one page to share.');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('No link was made');
    expect(await activeLinks()).toBe(0);
  }, 30_000);

  it('makes a link without filters when the starting filters are cleared', async () => {
    await page.goto('/svc-admin/statistics');
    await page.locator('[data-table="pages"] .row-filter').first().click();
    await page.waitForFunction(() => new URL(location.href).searchParams.has('filters'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Share links' }).click();
    await expect(page.locator('[data-filters]').inputValue()).resolves.toMatch(/^page_url: /);
    expect(await page.locator('[data-view-url]').inputValue()).toContain('filters=');
    await page.locator('[data-filters]').fill('');
    await Promise.all([page.waitForURL(/created=[a-f0-9]{32}/), page.getByRole('button', { name: 'Create link' }).click()]);
    const url = await page.locator('[data-link-field]').inputValue();
    expect(new URL(url).searchParams.has('filters')).toBe(false);
    const viewer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const shared = await viewer.newPage();
    await shared.goto(url);
    await shared.locator('[data-table="pages"] tbody tr').first().waitFor({ timeout: STEP });
    await expect(shared.locator('[data-filters] .chip').count()).resolves.toBe(0);
    expect(new URL(shared.url()).searchParams.has('filters')).toBe(false);
    await viewer.close();
  }, 40_000);

  it('asks before revoking a link', async () => {
    await page.goto('/svc-admin/share');
    const questions: string[] = [];
    page.once('dialog', (d) => void (questions.push(d.message()), d.dismiss()));
    await page.locator('[data-links]').getByRole('button', { name: 'Revoke' }).first().click();
    expect(questions).toEqual(['Revoke this link? Whoever has it loses access at once; this cannot be undone.']);
    expect(await activeLinks()).toBe(1);
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL(/done=revoked/), page.locator('[data-links]').getByRole('button', { name: 'Revoke' }).first().click()]);
    expect(await activeLinks()).toBe(0);
  }, 30_000);
});
