/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../../core';
import { PHONE, describeBrowser, launchBrowser, signedInPage } from '../../../test/helpers/browser';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, GOOGLEBOT, pageview, setOptions, track } from './helpers';

const SHOTS = path.resolve(__dirname, '..', '..', '..', 'test-output');
const STEP = 20_000;

describeBrowser('a new site waits for its first pageview on the statistics tab', () => {
  let tk: TestKernel;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    tk = await createTestKernel({ plugins: ['tracking'], clock: new ManualClock(Date.now()) });
    browser = await launchBrowser();
    ({ context, page } = await signedInPage(browser, tk.url, tk.admin, { viewport: { width: 1366, height: 900 }, timeout: STEP }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tk.url });
    page.on('pageerror', (e) => problems.push(e.message));
  }, 60_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  it('shows the line to copy, with a copy button, and waits', async () => {
    const panel = page.locator('[data-onboarding]');
    await panel.getByRole('heading', { name: 'Add the tracking script to your site' }).waitFor();
    const snippet = `<script src="${tk.url}/svc/embed.js" async></script>`;
    await expect(panel.locator('[data-snippet]').textContent()).resolves.toBe(snippet);
    await panel.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(snippet);
    await expect(panel.getByRole('status').textContent()).resolves.toMatch(/^Waiting for the first pageview/);
  }, 30_000);

  it('lists the hits that arrived but were dropped, with the reason', async () => {
    await track(tk, pageview('https://site.example/pricing', 'crawler', { user_agent: GOOGLEBOT }), { headers: { 'user-agent': GOOGLEBOT } });
    await setOptions(tk, { enable_do_not_track: true });
    await track(tk, pageview('https://site.example/private', 'careful'), { headers: { 'user-agent': CHROME, dnt: '1' } });
    const drops = page.locator('[data-onboarding] [data-drops] li');
    await page.locator('[data-onboarding] li[data-reason="do not track"]').waitFor();
    await expect(drops.allTextContents()).resolves.toEqual([
      expect.stringContaining('not counted because the browser sends Do Not Track, and your settings honour it'),
      expect.stringContaining('not counted because the browser says it is a bot or crawler'),
    ]);
    await page.screenshot({ path: path.join(SHOTS, 'onboarding-waiting.png'), fullPage: true });
    await page.setViewportSize(PHONE.viewport);
    // The chart follows the new width on its next resize event; then nothing may stick out.
    await page.waitForFunction(() => document.scrollingElement!.scrollWidth <= innerWidth, undefined, { timeout: 5000 });
    await page.screenshot({ path: path.join(SHOTS, 'onboarding-waiting-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  }, 40_000);

  it('turns live when the first pageview arrives, and fills the panels', async () => {
    await setOptions(tk, { enable_do_not_track: false });
    expect((await track(tk, pageview('https://site.example/hello-world', 'first'), { headers: { 'user-agent': CHROME } })).status).toBe(200);
    await page.locator('[data-onboarding].is-live').waitFor();
    await expect(page.locator('[data-onboarding] h2').textContent()).resolves.toBe('Your site is counted');
    await expect(page.locator('[data-onboarding] [role="status"]').textContent()).resolves.toMatch(/^Live: the first pageview arrived at .+ \(\/hello-world\)/);
    await expect(page.locator('[data-onboarding] [data-drops] li').count()).resolves.toBe(0);
    await page.locator('[data-table="pages"] tbody tr').first().waitFor();
    await expect(page.locator('[data-table="pages"] td.label').first().textContent()).resolves.toBe('/hello-world');
    await page.screenshot({ path: path.join(SHOTS, 'onboarding-live.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 40_000);

  it('is not shown once the site has pageviews', async () => {
    await page.reload();
    await page.locator('[data-table="pages"] tbody tr').first().waitFor();
    await expect(page.locator('[data-onboarding]').isHidden()).resolves.toBe(true);
  }, 30_000);
});
