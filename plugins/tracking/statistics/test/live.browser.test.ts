/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import { insertPageview, insertSession } from '../../../../core/statistics/test/traffic';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');

describeBrowser('the live view in a browser', () => {
  const b = browserSuite(async () => {
    const tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_TIMEZONE: 'UTC' } });
    await hit(tk.kernel.db, tk.clock.unix(), 'reader', '/pricing');
    await hit(tk.kernel.db, tk.clock.unix(), 'browser', '/blog/a-rather-long-article-title-that-needs-cutting-on-a-phone');
    return tk;
  });
  async function hit(db: Parameters<typeof insertSession>[0], now: number, uid: string, url: string) {
    await insertPageview(db, await insertSession(db, uid, now - 20), uid, now - 20, { url, top: 0 });
  }
  const visitors = () => b.page.textContent('[data-live-visitors]');
  const noSidewaysScroll = () => b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('opens from the statistics page and shows the figures, bars and tables', async () => {
    await b.page.setViewportSize({ width: 1366, height: 900 });
    await b.page.goto(`${b.tk.url}/svc-admin/statistics`);
    await b.page.click('[data-live-link]');
    await b.page.waitForURL('**/svc-admin/statistics/live');
    await b.page.waitForFunction(() => document.querySelector('[data-live-visitors]')?.textContent === '2');
    expect(await b.page.textContent('[data-live-pageviews]')).toBe('2');
    expect(await b.page.locator('[data-live-minutes] .bar').count()).toBe(30);
    expect(await b.page.locator('[data-live-minutes] .bar:not(.zero)').count()).toBeGreaterThanOrEqual(1);
    expect(await b.page.textContent('[data-live-table="top_pages"]')).toContain('/pricing');
    expect(await b.page.textContent('[data-live-table="top_referrers"]')).toContain('Direct / none');
    expect(await b.page.locator('[data-live-table="top_countries"] tbody tr').count()).toBe(1);
    expect(await noSidewaysScroll()).toBe(true);
    fs.mkdirSync(OUTPUT, { recursive: true });
    await b.page.screenshot({ path: path.join(OUTPUT, 'statistics-live.png'), fullPage: true });
  });

  it('refreshes without reloading, and shows a failed refresh until the next one works', async () => {
    await b.page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await hit(b.tk.kernel.db, b.tk.clock.unix(), 'newcomer', '/pricing');
    await b.page.waitForFunction(() => document.querySelector('[data-live-visitors]')?.textContent === '3', undefined, { timeout: 15_000 });
    expect(await b.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    await b.page.route('**/data/realtime*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"code":"svc_error","message":"The database is away."}' }));
    await b.page.waitForSelector('[data-live-error] .state.error', { timeout: 15_000 });
    expect(await b.page.textContent('[data-live-error]')).toContain('Refreshing failed: The database is away.');
    expect(await visitors()).toBe('3');
    await b.page.unroute('**/data/realtime*');
    await b.page.waitForSelector('[data-live-error] .state.error', { state: 'detached', timeout: 15_000 });
    expect(await b.page.evaluate(() => document.getElementById('svc-live')?.classList.contains('is-stale'))).toBe(false);
  });

  it('stops asking while the tab is hidden and asks at once when it shows again', async () => {
    const page = await b.context.newPage();
    await page.clock.install();
    let asked = 0;
    page.on('request', (req) => void (req.url().includes('/data/realtime') && asked++));
    await page.goto(`${b.tk.url}/svc-admin/statistics/live`);
    await page.waitForFunction(() => document.querySelector('[data-live-visitors]')?.textContent === '3');
    const answer = () => page.waitForResponse((res) => res.url().includes('/data/realtime'));
    await Promise.all([answer(), page.clock.runFor(5_000)]);
    expect(asked).toBe(2);
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    const before = asked;
    await page.clock.runFor(60_000);
    expect(asked).toBe(before);
    await Promise.all([answer(), setHidden(false)]);
    expect(asked).toBe(before + 1);
    await page.close();
  });

  it('fits a phone screen', async () => {
    await b.page.setViewportSize({ width: 390, height: 844 });
    await b.page.reload();
    await b.page.waitForFunction(() => document.querySelector('[data-live-visitors]')?.textContent === '3');
    await b.page.waitForSelector('[data-live-table="top_pages"] table');
    expect(await noSidewaysScroll()).toBe(true);
    await b.page.screenshot({ path: path.join(OUTPUT, 'statistics-live-phone.png'), fullPage: true });
  });
});
