/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, signedInPage } from '../../../test/helpers/browser';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

const STEP = 15_000;

describeBrowser('the goals form in Chromium', () => {
  let tk: TestKernel;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
    browser = await launchBrowser();
    ({ context, page } = await signedInPage(browser, tk.url, tk.admin, { viewport: { width: 390, height: 844 }, timeout: STEP }));
    await page.goto('/svc-admin/statistics/goals');
  }, 60_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  const errorOf = (field: string) => page.locator(`[data-field="${field}"] .field-error`);

  it('refuses a click goal without a selector, next to the selector field', async () => {
    await page.getByLabel('Title').fill('Sign-up clicks');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await expect(errorOf('selector').textContent({ timeout: STEP })).resolves.toBe('The selector is needed for a click goal: the element to watch, e.g. #signup or button.buy.');
    expect(await tk.kernel.db.select(`SELECT ID FROM ${tk.kernel.db.quote(tk.kernel.db.table('goals'))}`)).toEqual([]);
  }, 30_000);

  it('shows every problem at once, each next to its field', async () => {
    await page.getByLabel('CSS selector (clicks, views)').fill('button[');
    await page.getByLabel('Page (path or *)').fill('pricing');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await expect(errorOf('url').textContent({ timeout: STEP })).resolves.toBe('The page must be * for every page, a path that starts with / or a full address starting with https://.');
    await expect(errorOf('selector').textContent()).resolves.toMatch(/^The selector is not a CSS selector \(.+\), e\.g\. #signup or button\.buy\.$/);
    await expect(page.locator('.field-error').count()).resolves.toBe(2);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
  }, 30_000);

  it('adds the goal once the fields are right, and clears the errors', async () => {
    await page.getByLabel('CSS selector (clicks, views)').fill('button.signup > span');
    await page.getByLabel('Page (path or *)').fill('/pricing/');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page.getByText('Goal "Sign-up clicks" added.').waitFor();
    await expect(page.locator('.field-error').count()).resolves.toBe(0);
    await expect(page.locator('[data-goal-list] td[data-label="Target"]').textContent()).resolves.toBe('button.signup > span on /pricing/');
  }, 30_000);
});
