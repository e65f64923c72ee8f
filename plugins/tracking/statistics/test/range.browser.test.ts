/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, signedInPage } from '../../../../test/helpers/browser';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';

const STEP = 15_000;

describeBrowser('the custom period of a dashboard', () => {
  let tk: TestKernel;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
    browser = await launchBrowser();
    ({ context, page } = await signedInPage(browser, tk.url, tk.admin, { timeout: STEP }));
  }, 60_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  it('refuses a reversed range, then applies the corrected one without a reload', async () => {
    await page.locator('select[name=preset]').selectOption('custom');
    await page.locator('input[name=date_start]').fill('2026-03-20');
    await page.locator('input[name=date_end]').fill('2026-03-10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.locator('input[name=date_start]').evaluate((input: HTMLInputElement) => input.validationMessage)).resolves.toBe('The start must not be after the end.');
    expect(new URL(page.url()).searchParams.get('range')).not.toBe('custom');

    await page.locator('input[name=date_start]').fill('2026-03-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('date_start') === '2026-03-01', undefined, { timeout: STEP });
    expect(new URL(page.url()).searchParams.get('date_end')).toBe('2026-03-10');
    await expect(page.locator('[data-period]').textContent()).resolves.toBe('2026-03-01 – 2026-03-10');

    await page.locator('input[name=date_end]').fill('2026-02-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('input[name=date_end]').fill('2026-03-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('date_end') === '2026-03-31', undefined, { timeout: STEP });
  }, 40_000);
});
