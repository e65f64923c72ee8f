/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { insertPageview, insertSession } from '../../../../core/statistics/test/traffic';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');
const HOSTILE = '/"><img src=x onerror="window.__pwned=1">';

describeBrowser('statistics dashboard in a browser', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking', 'sources'], env: { SVC_TIMEZONE: 'UTC', SVC_LICENSE: 'creator' } });
      const quiet = { out: () => undefined, err: (line: string) => console.error(line), progress: () => undefined };
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '25', '--seed', '7'], quiet)).toBe(0);
      const session = await insertSession(tk.kernel.db, 'hostile', tk.clock.unix() - 30);
      await insertPageview(tk.kernel.db, session, 'hostile', tk.clock.unix() - 30, { url: HOSTILE, top: 5 });
      await tk.kernel.statistics.folder.foldPending();
      return tk;
    },
    { startMs: 90_000 },
  );

  const cardValue = async (metric: string) =>
    Number(((await b.page.textContent(`[data-metric="${metric}"] .metric-value`)) ?? '').replace(/[^\d]/g, ''));

  it('shows the cards, chart and tables, switches the range and applies a filter', async () => {
    await b.page.waitForSelector('[data-metric="visitors"]');
    await b.page.waitForSelector('[data-table="pages"] table');
    const visitors30 = await cardValue('pageviews');
    expect(visitors30).toBeGreaterThan(0);
    await b.page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-live]')?.textContent ?? ''));
    expect(await b.page.locator('[data-table="pages"] .row-filter').count()).toBeGreaterThan(3);

    await b.page.selectOption('select[name=preset]', 'last_7_days');
    await b.page.waitForFunction(() => new URL(location.href).searchParams.get('range') === 'last_7_days');
    await b.page.waitForFunction((before) => {
      const text = document.querySelector('[data-metric="pageviews"] .metric-value')?.textContent ?? '';
      return Number(text.replace(/[^\d]/g, '')) < before;
    }, visitors30);

    const firstPage = await b.page.locator('[data-table="pages"] .row-filter').first().textContent();
    await b.page.locator('[data-table="pages"] .row-filter').first().click();
    await b.page.waitForSelector('[data-filters] .chip');
    expect(await b.page.textContent('[data-filters] .chip')).toContain(firstPage!);
    await b.page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length === 1);
    expect(new URL(b.page.url()).searchParams.get('filters')).toBe(JSON.stringify({ page_url: firstPage }));
    // The live count takes no filter, and says so while one is set.
    expect(await b.page.textContent('[data-live-scope]')).toBe('live now on the whole site');

    fs.mkdirSync(OUTPUT, { recursive: true });
    await b.page.screenshot({ path: path.join(OUTPUT, 'statistics-dashboard.png'), fullPage: true });
    // The longer live label and its link still fit a phone, beside the filter chip.
    await b.page.setViewportSize({ width: 390, height: 844 });
    // The chart follows the new width on its next resize callback.
    await b.page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth);
    await b.page.screenshot({ path: path.join(OUTPUT, 'statistics-dashboard-filtered-phone.png') });
    await b.page.setViewportSize({ width: 1280, height: 900 });

    await b.page.click('[data-filters] .chip-remove');
    await b.page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length > 1);
    expect(await b.page.textContent('[data-live-scope]')).toBe('live now');
  });

  it('shows tracked strings as text, never as markup', async () => {
    await b.page.goto(`${b.tk.url}/svc-admin/statistics?range=today&filters=${encodeURIComponent(JSON.stringify({ page_url: HOSTILE }))}`);
    await b.page.waitForFunction((url) => [...document.querySelectorAll('[data-table="pages"] .row-filter')].some((b) => b.textContent === url), HOSTILE);
    expect(await b.page.textContent('[data-filters] .chip summary')).toBe(`Page: ${HOSTILE}`);
    expect(await b.page.locator('[data-table="pages"] img').count()).toBe(0);
    expect(await b.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('manages goals against the goals REST API', async () => {
    await b.page.goto(`${b.tk.url}/svc-admin/statistics/goals`);
    await b.page.waitForSelector('[data-goal-list] table');
    expect(await b.page.textContent('[data-goal-list]')).toContain('Viewed pricing');
    await b.page.fill('[data-goal-form] input[name=title]', 'Read <the> docs');
    await b.page.selectOption('[data-goal-form] select[name=type]', 'visits');
    await b.page.fill('[data-goal-form] input[name=url]', '/docs');
    await b.page.click('[data-goal-form] button[type=submit]');
    await b.page.waitForFunction(() => document.querySelector('[data-goal-list]')?.textContent?.includes('Read <the> docs'));
    expect(await b.page.textContent('[data-goal-message]')).toBe('Goal "Read <the> docs" added.');
    const row = b.page.locator('[data-goal-list] tr', { hasText: 'Read <the> docs' });
    await row.locator('button', { hasText: 'Deactivate' }).click();
    await b.page.waitForFunction(() => [...document.querySelectorAll('[data-goal-list] tr')].some((tr) => tr.textContent?.includes('Read <the> docs') && tr.textContent.includes('inactive')));
    await b.page.fill('[data-goal-form] input[name=title]', 'Hook without a name');
    await b.page.selectOption('[data-goal-form] select[name=type]', 'hook');
    await b.page.click('[data-goal-form] button[type=submit]');
    await b.page.waitForFunction(() => (document.querySelector('[data-goal-message]')?.textContent ?? '').length > 0);
    expect(await b.page.textContent('[data-goal-message]')).toBe('Nothing was added: fix what is marked above.');
    expect(await b.page.textContent('[data-field="hook"] .field-error')).toBe('The hook name is needed for a hook goal.');
    expect(await b.page.textContent('[data-goal-list]')).not.toContain('Hook without a name');
  });

  it('shows the sources tab with its world map', async () => {
    await b.page.goto(`${b.tk.url}/svc-admin/sources`);
    await b.page.waitForSelector('[data-channel="direct"]');
    await b.page.waitForSelector('[data-map] svg path.country');
    expect(await b.page.locator('[data-map] svg path.country').count()).toBeGreaterThan(150);
    expect(await b.page.locator('[data-table="referrer-domains"] table, [data-table="referrer-domains"] .state').count()).toBe(1);
    await b.page.screenshot({ path: path.join(OUTPUT, 'sources.png'), fullPage: true });
  });

  it('takes a custom range and fits a phone screen', async () => {
    await b.page.goto(`${b.tk.url}/svc-admin/statistics`);
    await b.page.setViewportSize({ width: 390, height: 844 });
    await b.page.selectOption('select[name=preset]', 'custom');
    await b.page.fill('input[name=date_start]', '2020-01-01');
    await b.page.fill('input[name=date_end]', '2020-01-31');
    await b.page.click('.range button[type=submit]');
    await b.page.waitForSelector('[data-table="pages"] .state.empty');
    expect(await b.page.textContent('[data-table="pages"] .state.empty')).toContain('Add the tracking script');
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(392);
    await b.page.screenshot({ path: path.join(OUTPUT, 'statistics-dashboard-phone.png'), fullPage: true });
  });
});
