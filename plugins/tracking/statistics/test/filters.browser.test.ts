/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');

describeBrowser('dashboard filters with operators and several values', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking', 'story'], env: { SVC_TIMEZONE: 'UTC', SVC_LICENSE: 'creator' } });
      const quiet = { out: () => undefined, err: (line: string) => console.error(line), progress: () => undefined };
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '25', '--seed', '11'], quiet)).toBe(0);
      await tk.kernel.statistics.folder.foldPending();
      return tk;
    },
    { startMs: 90_000 },
  );

  const settled = () =>
    b.page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0 && document.querySelectorAll('.state.loading').length === 0);
  const pages = () => b.page.locator('[data-table="pages"] .row-filter').allTextContents();
  const pageviewsCard = async () => Number(((await b.page.textContent('[data-metric="pageviews"] .metric-value')) ?? '').replace(/[^\d]/g, ''));
  const urlFilters = () => JSON.parse(new URL(b.page.url()).searchParams.get('filters') ?? '{}') as unknown;
  /** Pageviews per page of the unfiltered view, from the pages table. */
  const pageviewsOf = async () => {
    const rows = await b.page.locator('[data-table="pages"] tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('.row-filter')?.textContent ?? '', tr.querySelector('td.num')?.textContent ?? '']));
    return new Map(rows.map(([url, views]) => [url!, Number(views!.replace(/[^\d]/g, ''))]));
  };

  for (const width of [1366, 390]) {
    it(`filters by a clicked row, switches the operator, adds a value and keeps it over a reload (${width} px)`, async () => {
      await b.page.setViewportSize({ width, height: 900 });
      await b.page.goto(`${b.tk.url}/svc-admin/statistics?range=last_30_days`);
      await b.page.waitForSelector('[data-table="pages"] table');
      await settled();
      const total = await pageviewsCard();
      const views = await pageviewsOf();
      const [first, second] = await pages();
      expect(first && second).toBeTruthy();

      await b.page.locator('[data-table="pages"] .row-filter').first().click();
      await b.page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length === 1);
      expect(await b.page.textContent('[data-filters] .chip summary')).toBe(`Page: ${first}`);
      expect(urlFilters()).toEqual({ page_url: first });
      await settled();
      expect(await pageviewsCard()).toBe(views.get(first!));

      await b.page.click('[data-filters] .chip summary');
      await b.page.selectOption('[data-filters] select[name=operator]', 'is_not');
      await b.page.waitForFunction(() => document.querySelector('[data-filters] .chip summary')?.textContent?.startsWith('Page is not: '));
      expect(urlFilters()).toEqual({ page_url: { operator: 'is_not', value: [first] } });
      await settled();
      expect(await pages()).not.toContain(first);
      expect(await pageviewsCard()).toBe(total - views.get(first!)!);

      // The menu stays open after the change, so a second value goes straight in.
      await b.page.fill('[data-filters] input[name=value]', second!);
      await b.page.press('[data-filters] input[name=value]', 'Enter');
      await b.page.waitForFunction((text) => document.querySelector('[data-filters] .chip summary')?.textContent === text, `Page is not: ${first}, ${second}`);
      expect(urlFilters()).toEqual({ page_url: { operator: 'is_not', value: [first, second] } });
      await settled();
      expect(await pages()).not.toContain(second);
      expect(await pageviewsCard()).toBe(total - views.get(first!)! - views.get(second!)!);
      expect(await b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      fs.mkdirSync(OUTPUT, { recursive: true });
      await b.page.screenshot({ path: path.join(OUTPUT, `statistics-filters-${width}.png`), fullPage: width > 400 });

      await b.page.reload();
      await b.page.waitForSelector('[data-table="pages"] table');
      await settled();
      expect(await b.page.textContent('[data-filters] .chip summary')).toBe(`Page is not: ${first}, ${second}`);
      expect(await pages()).not.toContain(first);
      expect(await pageviewsCard()).toBe(total - views.get(first!)! - views.get(second!)!);

      await b.page.click('[data-filters] .chip summary');
      await b.page.selectOption('[data-filters] select[name=operator]', 'contains');
      await b.page.waitForFunction(() => document.querySelector('[data-filters] .chip summary')?.textContent?.startsWith('Page contains: '));
      await settled();
      expect(await pages()).toEqual(expect.arrayContaining([first, second]));
      await b.page.click(`[data-filters] .chip-value-remove[aria-label="Remove ${second}"]`);
      await b.page.waitForFunction((text) => document.querySelector('[data-filters] .chip summary')?.textContent === text, `Page contains: ${first}`);
      expect(urlFilters()).toEqual({ page_url: { operator: 'contains', value: [first] } });

      await b.page.click('[data-filters] .chip-remove');
      await b.page.waitForFunction(() => document.querySelector('[data-filters]')?.hasAttribute('hidden'));
      await settled();
      expect(await pageviewsCard()).toBe(total);
      expect(b.problems).toEqual([]);
    }, 60_000);
  }

  it('shows the operator filter a share link forces as text its viewer cannot change, even through the address', async () => {
    const user = (await b.tk.kernel.users.findByLogin(b.tk.admin.login))!;
    const admin = b.tk.client().withBasic(user.login, (await b.tk.kernel.appPasswords.create(user, 'filters')).password);
    const forced = { page_url: { operator: 'is_not', value: ['/'] } };
    const link = await admin.post(`${b.tk.api}/do_action/get_share_token`, {
      json: { shared_tabs: ['statistics'], view_url: `/svc-admin/statistics?range=last_30_days&filters=${encodeURIComponent(JSON.stringify(forced))}` },
    });
    expect(link.status).toBe(200);
    const context = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${link.body.share_url as string}&filters=${encodeURIComponent(JSON.stringify({ page_url: '/' }))}`);
      await page.waitForSelector('[data-table="pages"] table');
      expect(await page.textContent('[data-filters] .chip')).toBe('Page is not: /');
      expect(await page.locator('[data-filters] button, [data-filters] select, [data-filters] input').count()).toBe(0);
      expect(await page.locator('[data-table="pages"] .row-filter').allTextContents()).not.toContain('/');
    } finally {
      await context.close();
    }
  }, 60_000);
});
