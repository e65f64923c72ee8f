/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { generateTraffic } from '../../../../core/statistics/test/generator';
import { insertPageview, insertSession } from '../../../../core/statistics/test/traffic';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import { statisticsTab } from './tab-plugin';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');
const HOSTILE = '/"><img src=x onerror="window.__pwned=1">';

describe('statistics dashboard in a browser', () => {
  let tk: TestKernel;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    tk = await createTestKernel({ inline: [statisticsTab], env: { SVC_TIMEZONE: 'UTC' } });
    await generateTraffic(tk.kernel.db, { pageviews: 4000, days: 60, end: tk.clock.unix(), timezone: 'UTC' });
    const session = await insertSession(tk.kernel.db, 'hostile', tk.clock.unix() - 7200);
    await insertPageview(tk.kernel.db, session, 'hostile', tk.clock.unix() - 7200, { url: HOSTILE, top: 5 });
    await tk.kernel.statistics.folder.foldPending();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => console.log('CONSOLE', m.text()));
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    await page.goto(`${tk.url}/svc-admin/login`);
    await page.fill('input[name=log]', tk.admin.login);
    await page.fill('input[name=pwd]', tk.admin.password);
    await Promise.all([page.waitForURL(/svc-admin\/statistics/), page.click('button[type=submit]')]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await tk?.close();
  });

  const cardValue = async (metric: string) =>
    Number(((await page.textContent(`[data-metric="${metric}"] .metric-value`)) ?? '').replace(/[^\d]/g, ''));

  it('shows the cards, chart and tables, switches the range and applies a filter', async () => {
    await page.waitForSelector('[data-metric="visitors"]');
    await page.waitForSelector('[data-table="pages"] table');
    const visitors30 = await cardValue('pageviews');
    expect(visitors30).toBeGreaterThan(0);
    expect(await page.textContent('[data-live]')).toMatch(/^\d+$/);
    expect(await page.locator('[data-table="pages"] .row-filter').count()).toBeGreaterThan(3);

    await page.selectOption('select[name=preset]', 'last_7_days');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('range') === 'last_7_days');
    await page.waitForFunction((before) => {
      const text = document.querySelector('[data-metric="pageviews"] .metric-value')?.textContent ?? '';
      return Number(text.replace(/[^\d]/g, '')) < before;
    }, visitors30);

    const firstPage = await page.locator('[data-table="pages"] .row-filter').first().textContent();
    await page.locator('[data-table="pages"] .row-filter').first().click();
    await page.waitForSelector('[data-filters] .chip');
    expect(await page.textContent('[data-filters] .chip')).toContain(firstPage!);
    await page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length === 1);
    expect(new URL(page.url()).searchParams.get('filters')).toBe(JSON.stringify({ page_url: firstPage }));

    fs.mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, 'statistics-dashboard.png'), fullPage: true });

    await page.click('[data-filters] .chip');
    await page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length > 1);
  });

  it('shows tracked strings as text, never as markup', async () => {
    await page.selectOption('select[name=preset]', 'today');
    await page.waitForFunction((url) => [...document.querySelectorAll('[data-table="pages"] .row-filter')].some((b) => b.textContent === url), HOSTILE);
    expect(await page.locator('[data-table="pages"] img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('takes a custom range and fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.selectOption('select[name=preset]', 'custom');
    await page.fill('input[name=date_start]', '2020-01-01');
    await page.fill('input[name=date_end]', '2020-01-31');
    await page.click('.range button[type=submit]');
    await page.waitForSelector('[data-table="pages"] .state.empty');
    expect(await page.textContent('[data-table="pages"] .state.empty')).toContain('Add the tracking script');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(392);
    await page.screenshot({ path: path.join(OUTPUT, 'statistics-dashboard-phone.png'), fullPage: true });
  });
});
