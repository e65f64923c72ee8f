/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Download } from 'playwright-core';
import { insertPageview, insertSession } from '../../../../core/statistics/test/traffic';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');
/** Pages added to the demo traffic, so the details view has more than one page of rows. */
const EXTRA = 64;

describeBrowser('details view of a panel: all rows, search, sort, pages, CSV and the zip of every table', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_TIMEZONE: 'UTC' } });
      const quiet = { out: () => undefined, err: (line: string) => console.error(line), progress: () => undefined };
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '25', '--seed', '11'], quiet)).toBe(0);
      const time = tk.kernel.clock.unix() - 3 * 86400;
      const session = await insertSession(tk.kernel.db, 'details-test', time);
      for (let i = 0; i < EXTRA; i++) await insertPageview(tk.kernel.db, session, 'details-test', time + i, { url: `/extra-${String(i).padStart(2, '0')}`, top: 3 });
      await tk.kernel.statistics.folder.foldPending();
      return tk;
    },
    { startMs: 90_000 },
  );

  const settled = () => b.page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0 && document.querySelectorAll('.state.loading').length === 0);
  const labels = () => b.page.locator('.details-dialog tbody td.label span').allTextContents();
  const count = () => b.page.textContent('.details-dialog .details-count');
  const option = (key: string) => new URL(b.page.url()).searchParams.get(key);
  const text = async (download: Download) => fs.readFileSync((await download.path())!, 'utf8');
  const download = async (selector: string) => {
    const [file] = await Promise.all([b.page.waitForEvent('download'), b.page.click(selector)]);
    return file;
  };

  for (const width of [1366, 390]) {
    it(`opens the details of the pages panel, pages, sorts, searches and downloads (${width} px)`, async () => {
      await b.page.setViewportSize({ width, height: 900 });
      await b.page.goto(`${b.tk.url}/svc-admin/statistics?range=last_30_days`);
      await b.page.waitForSelector('[data-table="pages"] table');
      await settled();
      expect(await b.page.locator('[data-table="pages"] tbody tr').count()).toBe(10);

      await b.page.click('[data-export="pages"] .details-open');
      await b.page.waitForSelector('.details-dialog[open] tbody tr');
      await settled();
      expect(option('details')).toBe('pages');
      const first = (await count())!;
      const total = Number(/of (\d+)$/.exec(first)![1]);
      expect(total).toBeGreaterThan(EXTRA);
      expect(first).toBe(`Rows 1–50 of ${total}`);
      expect(await labels()).toHaveLength(50);

      await b.page.click('.details-dialog [data-page="next"]');
      await b.page.waitForFunction((t) => document.querySelector('.details-count')?.textContent === `Rows 51–${Math.min(100, t)} of ${t}`, total);
      expect(option('details_page')).toBe('2');

      // Sort by the page address, A to Z: by its column head on a wide screen, by the list on a phone (heads hidden there).
      if (width > 400) await b.page.click('.details-dialog th [data-sort="page_url"]');
      else await b.page.selectOption('.details-dialog select[name=sort]', 'page_url:asc');
      await b.page.waitForFunction(() => document.querySelector('.details-count')?.textContent?.startsWith('Rows 1–50'));
      await settled();
      const sorted = await labels();
      expect(sorted).toEqual([...sorted].sort((a, c) => a.localeCompare(c)));
      expect([option('details_sort'), option('details_order')]).toEqual(['page_url', 'asc']);

      await b.page.fill('.details-dialog input[name=search]', 'EXTRA-1');
      await b.page.press('.details-dialog input[name=search]', 'Enter');
      await b.page.waitForFunction(() => document.querySelector('.details-count')?.textContent === 'Rows 1–10 of 10');
      expect(await labels()).toEqual(Array.from({ length: 10 }, (_, i) => `/extra-1${i}`));

      await b.page.evaluate(() => {
        const dialog = document.querySelector('.details-dialog')!;
        dialog.scrollTop = dialog.scrollHeight;
      });
      expect(await b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await b.page.evaluate(() => { const d = document.querySelector('.details-dialog')!; return d.scrollWidth <= d.clientWidth; })).toBe(true);
      fs.mkdirSync(OUTPUT, { recursive: true });
      await b.page.screenshot({ path: path.join(OUTPUT, `statistics-details-${width}.png`) });

      const csv = await download('.details-dialog .details-csv');
      const lines = (await text(csv)).trim().split('\r\n');
      expect(lines[0]).toBe('page_url,pageviews,sessions,bounce_rate,avg_time_on_page');
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(Array.from({ length: 10 }, (_, i) => `/extra-1${i}`));

      // The URL holds the view: a reload opens the same details with the same search and sort.
      await b.page.reload();
      await b.page.waitForSelector('.details-dialog[open] tbody tr');
      await b.page.waitForFunction(() => document.querySelector('.details-count')?.textContent === 'Rows 1–10 of 10');
      expect(await b.page.inputValue('.details-dialog input[name=search]')).toBe('EXTRA-1');
      await b.page.click('.details-dialog .details-close');
      // The dialog's close event (which also follows Escape) takes the details out of the address.
      await b.page.waitForFunction(() => !new URL(location.href).searchParams.has('details'));
      expect(await b.page.locator('.details-dialog[open]').count()).toBe(0);

      const zip = await download('[data-export-all="statistics"]');
      expect(zip.suggestedFilename()).toMatch(/^statistics-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.zip$/);
      const files = unzipSync(new Uint8Array(fs.readFileSync((await zip.path())!)));
      expect(Object.keys(files).sort()).toEqual(['browser-versions.csv', 'browsers.csv', 'countries.csv', 'devices.csv', 'entry-pages.csv', 'exit-pages.csv', 'goals.csv', 'not-found-pages.csv', 'operating-systems.csv', 'os-versions.csv', 'pages.csv', 'platforms.csv', 'referrers.csv', 'referring-domains.csv', 'screen-sizes.csv']);
      expect(strFromU8(files['pages.csv']!).trim().split('\r\n')).toHaveLength(total + 1);

      // A refused export says why beside its button.
      await b.page.route('**/data/export/statistics*', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'svc_export_timeout', message: 'The export took too long.' }) }),
      );
      await b.page.click('[data-export-all="statistics"]');
      await b.page.waitForSelector('.export-all .export-error');
      expect(await b.page.textContent('.export-all .export-error')).toBe('No export: The export took too long.');
      await b.page.unroute('**/data/export/statistics*');

      const browsers = await download('[data-export="browsers"] button.export');
      expect((await text(browsers)).split('\r\n')[0]).toBe('browser,sessions,pageviews,share');
      await b.page.screenshot({ path: path.join(OUTPUT, `statistics-panels-${width}.png`), fullPage: width > 400 });
      expect(await b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  }
});
