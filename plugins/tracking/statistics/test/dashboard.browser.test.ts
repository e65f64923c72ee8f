/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { insertPageview, insertSession } from '../../../../core/statistics/test/traffic';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');
const HOSTILE = '/"><img src=x onerror="window.__pwned=1">';

describe('statistics dashboard in a browser', () => {
  let tk: TestKernel;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking', 'sources'], env: { SVC_TIMEZONE: 'UTC', SVC_LICENSE: 'creator' } });
    const quiet = { out: () => undefined, err: (line: string) => console.error(line), progress: () => undefined };
    expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '25', '--seed', '7'], quiet)).toBe(0);
    const session = await insertSession(tk.kernel.db, 'hostile', tk.clock.unix() - 30);
    await insertPageview(tk.kernel.db, session, 'hostile', tk.clock.unix() - 30, { url: HOSTILE, top: 5 });
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
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-live]')?.textContent ?? ''));
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
    // The live count takes no filter, and says so while one is set.
    expect(await page.textContent('[data-live-scope]')).toBe('live now on the whole site');

    fs.mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, 'statistics-dashboard.png'), fullPage: true });

    await page.click('[data-filters] .chip');
    await page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length > 1);
    expect(await page.textContent('[data-live-scope]')).toBe('live now');
  });

  it('shows tracked strings as text, never as markup', async () => {
    await page.goto(`${tk.url}/svc-admin/statistics?range=today&filters=${encodeURIComponent(JSON.stringify({ page_url: HOSTILE }))}`);
    await page.waitForFunction((url) => [...document.querySelectorAll('[data-table="pages"] .row-filter')].some((b) => b.textContent === url), HOSTILE);
    expect(await page.textContent('[data-filters] .chip')).toBe(`Page: ${HOSTILE} ×`);
    expect(await page.locator('[data-table="pages"] img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('manages goals against the goals REST API', async () => {
    await page.goto(`${tk.url}/svc-admin/statistics/goals`);
    await page.waitForSelector('[data-goal-list] table');
    expect(await page.textContent('[data-goal-list]')).toContain('Viewed pricing');
    await page.fill('[data-goal-form] input[name=title]', 'Read <the> docs');
    await page.selectOption('[data-goal-form] select[name=type]', 'visits');
    await page.fill('[data-goal-form] input[name=url]', '/docs');
    await page.click('[data-goal-form] button[type=submit]');
    await page.waitForFunction(() => document.querySelector('[data-goal-list]')?.textContent?.includes('Read <the> docs'));
    expect(await page.textContent('[data-goal-message]')).toBe('Goal "Read <the> docs" added.');
    const row = page.locator('[data-goal-list] tr', { hasText: 'Read <the> docs' });
    await row.locator('button', { hasText: 'Deactivate' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-goal-list] tr')].some((tr) => tr.textContent?.includes('Read <the> docs') && tr.textContent.includes('inactive')));
    await page.fill('[data-goal-form] input[name=title]', 'Hook without a name');
    await page.selectOption('[data-goal-form] select[name=type]', 'hook');
    await page.click('[data-goal-form] button[type=submit]');
    await page.waitForFunction(() => (document.querySelector('[data-goal-message]')?.textContent ?? '').length > 0);
    expect(await page.textContent('[data-goal-message]')).toBe('Nothing was added: fix what is marked above.');
    expect(await page.textContent('[data-field="hook"] .field-error')).toBe('The hook name is needed for a hook goal.');
    expect(await page.textContent('[data-goal-list]')).not.toContain('Hook without a name');
  });

  it('shows the sources tab with its world map', async () => {
    await page.goto(`${tk.url}/svc-admin/sources`);
    await page.waitForSelector('[data-channel="direct"]');
    await page.waitForSelector('[data-map] svg path.country');
    expect(await page.locator('[data-map] svg path.country').count()).toBeGreaterThan(150);
    expect(await page.locator('[data-table="referrer-domains"] table, [data-table="referrer-domains"] .state').count()).toBe(1);
    await page.screenshot({ path: path.join(OUTPUT, 'sources.png'), fullPage: true });
  });

  it('takes a custom range and fits a phone screen', async () => {
    await page.goto(`${tk.url}/svc-admin/statistics`);
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
