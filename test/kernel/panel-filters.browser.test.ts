/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CliIO } from '../../core/cli/command';
import { ManualClock } from '../../core/clock';
import { describeBrowser, launchBrowser, signedInPage } from '../helpers/browser';
import type { HttpClient } from '../helpers/http-client';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const SHOTS = path.resolve(__dirname, '..', '..', 'test-output');
const STEP = 15_000;
const quiet: CliIO = { out: () => undefined, err: () => undefined, progress: () => undefined };
const WIDTHS = [390, 1366] as const;

/**
 * Every filter a dashboard offers applies to every panel of the view, or the
 * panel says plainly that it does not apply; no panel answers an error.
 */
describeBrowser('filters on every panel', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    tk = await createTestKernel({ plugins: ['tracking', 'sources', 'story', 'sales'], env: { SVC_LICENSE: 'business' }, clock: new ManualClock(Date.now()) });
    expect(await tk.kernel.commands.get('demo')!.run(['--days', '20', '--visitors', '15', '--seed', '5'], quiet)).toBe(0);
    const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
    admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 'panels')).password);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  const signedIn = async (width: number): Promise<Page> => {
    const { context, page } = await signedInPage(browser, tk.url, tk.admin, { viewport: { width, height: 900 }, timeout: STEP });
    contexts.push(context);
    page.on('pageerror', (e) => problems.push(e.message));
    return page;
  };
  const open = async (page: Page, tab: string, filters: Record<string, string>) => {
    await page.goto(`/svc-admin/${tab}?range=last_30_days&filters=${encodeURIComponent(JSON.stringify(filters))}`);
    await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0 && document.querySelectorAll('.state.loading').length === 0, undefined, { timeout: STEP });
  };
  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();
  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  for (const width of WIDTHS) {
    it(`filters Referring sites by campaign, with every other Sources panel (${width} px)`, async () => {
      const page = await signedIn(width);
      await open(page, 'sources', { campaign: 'spring' });
      expect(await texts(page, '.state.error')).toEqual([]);
      expect(await page.locator('[data-table="referrer-domains"]').textContent()).toBe('No visits came from other sites in this period.');
      expect(await page.locator('[data-filters] .chip').textContent()).toContain('Campaign: spring');
      expect(await noSidewaysScroll(page)).toBe(true);
    }, 60_000);

    it(`says which Sales panels a filter does not apply to, and fills the others (${width} px)`, async () => {
      const page = await signedIn(width);
      await open(page, 'sales', { device: 'mobile' });
      expect(await texts(page, '.state.error')).toEqual([]);
      for (const panel of ['[data-subscription-cards]', '[data-revenue-state]', '[data-distribution]', '[data-retention]', '[data-table="subscription_products"]']) {
        expect({ panel, text: await page.locator(panel).textContent() }).toEqual({ panel, text: 'The Device filter does not apply here.' });
      }
      expect(await page.locator('[data-revenue-chart]').isVisible()).toBe(false);
      // A panel the filter does not apply to offers no CSV of it; the others do.
      expect(await page.locator('[data-export="subscription_products"] button.export').isVisible()).toBe(false);
      expect(await page.locator('[data-export="sales_products"] button.export').isVisible()).toBe(true);
      expect(await page.locator('[data-sales-cards] .metric-card').count()).toBe(5);
      expect(await page.locator('[data-funnel] tbody tr').count()).toBe(5);
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `panel-filters-sales-${width}.png`), fullPage: true });

      await open(page, 'sales', { country: 'DE', page_url: '/pricing/' });
      expect(await texts(page, '.state.error')).toEqual([]);
      expect(await page.locator('[data-subscription-cards]').textContent()).toBe('The Page filter does not apply here.');
      expect(await page.locator('[data-sales-cards]').textContent()).toBe('The Page filter does not apply here.');
      expect(problems).toEqual([]);
    }, 60_000);
  }

  it('says in the panel why a CSV could not be made', async () => {
    const page = await signedIn(1366);
    await open(page, 'statistics', {});
    await page.context().clearCookies();
    await page.click('[data-export="pages"] button.export');
    const problem = page.locator('[data-export="pages"] .export-error');
    await problem.waitFor();
    expect(await problem.getAttribute('role')).toBe('alert');
    expect(await problem.textContent()).toMatch(/^No CSV: (?!The server answered).+/);
  }, 60_000);

  it('fills every subscription panel of a shared sales view that fixes a country', async () => {
    const link = await admin.post(`${tk.api}/do_action/get_share_token`, {
      json: { shared_tabs: ['sales'], view_url: '/svc-admin/sales', initial_state: { filters: { country: 'DE' } }, permissions: { can_filter: false } },
    });
    expect(link.status).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    contexts.push(context);
    context.setDefaultTimeout(STEP);
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(link.body.share_url);
    await page.locator('[data-subscription-cards] .metric-card, [data-subscription-cards] .state:not(.loading)').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.state.loading').length === 0, undefined, { timeout: STEP });
    expect(await texts(page, '.state.error')).toEqual([]);
    expect(await page.locator('[data-subscription-cards] .metric-card').count()).toBe(5);
    expect(await page.locator('[data-filters] .chip').textContent()).toBe('Country: Germany');
    expect(problems).toEqual([]);
  }, 60_000);
});
