/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { type CliIO, ManualClock } from '../../../core';
import { browserSuite, describeBrowser } from '../../../test/helpers/browser';
import { salesKernel } from './support';

const SHOTS = path.resolve(__dirname, '..', '..', '..', 'test-output');
const STEP = 15_000;
const io: CliIO = { out: () => undefined, err: () => undefined, progress: () => undefined };

describeBrowser('sales tab in Chromium with demo data', () => {
  const b = browserSuite(
    async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      const tk = await salesKernel({ clock: new ManualClock(Date.now()), plugins: ['tracking', 'sales'] });
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '15', '--seed', '5'], io)).toBe(0);
      return tk;
    },
    { signIn: false, timeout: STEP, consoleErrors: true, startMs: 90_000 },
  );

  it('shows the sales tab in the menu and draws every section from the ecommerce routes', async () => {
    await b.page.goto('/svc-admin/login');
    await b.page.getByLabel('User name').fill(b.tk.admin.login);
    await b.page.getByLabel('Password').fill(b.tk.admin.password);
    await Promise.all([b.page.waitForURL('**/svc-admin/**'), b.page.getByRole('button', { name: 'Sign in' }).click()]);
    await Promise.all([b.page.waitForURL('**/svc-admin/sales**'), b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sales' }).click()]);
    await b.page.getByRole('heading', { name: 'Sales', level: 1 }).waitFor();

    await b.page.locator('[data-sales-cards] .metric-card').nth(4).waitFor();
    expect(await b.page.locator('[data-sales-cards] .metric-label').allTextContents()).toEqual(['Revenue', 'Orders', 'Average order', 'Conversion rate', 'Cart abandonment']);
    expect(await b.page.locator('[data-metric="revenue"] .metric-value').textContent()).toMatch(/€/);
    await b.page.locator('[data-funnel] tbody tr').nth(4).waitFor();
    expect(await b.page.locator('[data-funnel] tbody td:first-child').allTextContents()).toEqual(['Visits', 'Product page views', 'Add to cart', 'Checkout visits', 'Conversions']);
    // The demo shop sells in EUR and USD: the Orders card counts every order, as the funnel does.
    const conversions = await b.page.locator('[data-funnel] tbody tr').nth(4).locator('td').nth(1).textContent();
    expect(await b.page.locator('[data-metric="orders"] .metric-value').textContent()).toBe(conversions);
    expect(await b.page.locator('[data-top] li').count()).toBe(4);
    await b.page.locator('[data-quick-wins] li, [data-quick-wins] .state:not(.loading)').first().waitFor();
    await b.page.locator('[data-subscription-cards] .metric-card').nth(4).waitFor();
    expect(await b.page.locator('[data-metric="mrr"] .metric-value').textContent()).toMatch(/\d/);
    await b.page.locator('[data-retention] table.retention tbody tr').first().waitFor();
    expect(await b.page.locator('[data-retention-product] option').count()).toBeGreaterThan(1);
    await b.page.locator('[data-distribution] tbody tr').first().waitFor();
    await b.page.locator('[data-table="sales_products"] tbody tr').first().waitFor();
    await b.page.locator('[data-table="subscription_products"] tbody tr').first().waitFor();
    const drawn = await b.page.evaluate(() =>
      [...document.querySelectorAll<HTMLCanvasElement>('#svc-sales canvas')].map((c) => c.width > 0 && c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data.some((v) => v !== 0)),
    );
    expect(drawn).toEqual([true, true]);
    await b.page.screenshot({ path: path.join(SHOTS, 'sales-tab.png'), fullPage: true, timeout: STEP });
  }, 60_000);

  it('switches the currency and the revenue chart mode', async () => {
    await Promise.all([
      b.page.waitForResponse((r) => r.url().includes('/data/ecommerce/sales?') && r.url().includes('currency=USD')),
      b.page.getByLabel('Currency', { exact: true }).selectOption('USD'),
    ]);
    await b.page.waitForFunction(() => document.querySelector('[data-metric="revenue"] .metric-value')?.textContent?.includes('$'));
    await Promise.all([
      b.page.waitForResponse((r) => r.url().includes('subscriptions-revenue-chart') && r.url().includes('chart_mode=sales')),
      b.page.getByLabel('Show', { exact: true }).selectOption('sales'),
    ]);
    expect(b.problems).toEqual([]);
  }, 30_000);

  it('shows a running backfill at the top of the page, with its progress, until it ends', async () => {
    await b.tk.kernel.options.set('svc_sales_backfill_api', { first_day: 0, total: 200, processed: 50, phase: 'aggregate' }, { autoload: false });
    await b.page.reload();
    const banner = b.page.locator('[data-backfill]');
    await banner.waitFor({ state: 'visible' });
    await expect(banner.textContent()).resolves.toBe(
      'Importing the subscription history from Ingestion API: 62 % (adding up 50 of 200 days). The subscription figures below are complete once it ends.',
    );
    await expect(b.page.locator('[data-backfill-bar]').evaluate((bar: HTMLProgressElement) => bar.value)).resolves.toBe(62);
    const bannerTop = (await banner.boundingBox())!.y;
    const cardsTop = (await b.page.locator('[data-sales-cards]').boundingBox())!.y;
    expect(bannerTop).toBeLessThan(cardsTop);
    expect(bannerTop).toBeLessThan(900);
    await b.page.screenshot({ path: path.join(SHOTS, 'sales-backfill-banner.png'), timeout: STEP });
    await b.tk.kernel.options.delete('svc_sales_backfill_api');
    await banner.waitFor({ state: 'hidden', timeout: 20_000 });
    expect(b.problems).toEqual([]);
  }, 40_000);
});
