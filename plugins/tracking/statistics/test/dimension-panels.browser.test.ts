/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');
const PANELS = ['entry-pages', 'exit-pages', 'referring-domains', 'operating-systems', 'browser-versions', 'screen-sizes'];

describeBrowser('entry and exit pages, referring domains, systems, versions and screen sizes on the dashboard', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_TIMEZONE: 'UTC' } });
      const quiet = { out: () => undefined, err: (line: string) => console.error(line), progress: () => undefined };
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '14', '--visitors', '25', '--seed', '11'], quiet)).toBe(0);
      await tk.kernel.statistics.folder.foldPending();
      return tk;
    },
    { startMs: 90_000 },
  );

  const rowsOf = (panel: string) => b.page.locator(`[data-table="${panel}"] .row-filter`).allTextContents();

  for (const width of [1366, 390]) {
    it(`fills every new panel and fits ${width} px without scrolling sideways`, async () => {
      await b.page.setViewportSize({ width, height: 900 });
      await b.page.goto(`${b.tk.url}/svc-admin/statistics`);
      for (const panel of PANELS) await b.page.waitForSelector(`[data-table="${panel}"] table`);
      expect(await rowsOf('screen-sizes')).toEqual(expect.arrayContaining(['Desktop ≥1440px', 'Mobile <576px', 'Tablet <992px', 'Laptop <1440px']));
      expect(await rowsOf('operating-systems')).toEqual(expect.arrayContaining(['Windows', 'iOS']));
      expect(await rowsOf('browser-versions')).toEqual(expect.arrayContaining(['Chrome 124']));
      expect(await rowsOf('referring-domains')).toEqual(expect.arrayContaining(['google.com', 'reddit.com', 'github.com']));
      expect((await rowsOf('entry-pages')).length).toBeGreaterThan(1);
      expect((await rowsOf('exit-pages')).length).toBeGreaterThan(1);
      expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      fs.mkdirSync(OUTPUT, { recursive: true });
      await b.page.screenshot({ path: path.join(OUTPUT, `statistics-dimensions-${width}.png`), fullPage: true });
    });
  }

  it('filters the page by a referring domain, and the referrers panel then lists its full addresses', async () => {
    await b.page.setViewportSize({ width: 1366, height: 900 });
    await b.page.goto(`${b.tk.url}/svc-admin/statistics`);
    await b.page.waitForSelector('[data-table="referring-domains"] table');
    await b.page.locator('[data-table="referring-domains"] .row-filter', { hasText: 'reddit.com' }).click();
    await b.page.waitForSelector('[data-filters] .chip');
    expect(await b.page.textContent('[data-filters] .chip summary')).toBe('Referring domain: reddit.com');
    await b.page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-table="referrers"] .row-filter')].map((r) => r.textContent);
      return rows.length === 1 && rows[0] === 'https://www.reddit.com/r/selfhosted/';
    });
    await b.page.locator('[data-table="screen-sizes"] .row-filter', { hasText: 'Mobile' }).click();
    await b.page.waitForFunction(() => document.querySelectorAll('[data-filters] .chip').length === 2);
    expect(new URL(b.page.url()).searchParams.get('filters')).toBe(JSON.stringify({ referrer_domain: 'reddit.com', screen: 'mobile' }));
  });
});
