/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';
import { CHROME, pageview, track } from '../../test/helpers';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');
const GOOGLE = 'https://www.google.com/';

describeBrowser('the funnels page in Chromium', () => {
  const b = browserSuite(async () => {
    const tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_TIMEZONE: 'UTC' } });
    const view = (uid: string, url: string, referrer = '') =>
      track(tk, pageview(`https://www.example.com${url}`, uid, { referrer_url: referrer }), { headers: { 'user-agent': CHROME } });
    await view('a', '/', GOOGLE);
    await view('a', '/pricing/');
    await view('b', '/');
    await view('c', '/pricing/');
    return tk;
  });
  const today = () => new Date(b.tk.kernel.clock.now()).toISOString().slice(0, 10);
  const settled = () => b.page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0 && document.querySelectorAll('.state.loading').length === 0);
  const figures = () => b.page.locator('.funnel-step .step-visitors').allTextContents();

  it('defines a funnel from page patterns and shows each step with its drop-off (1366 px)', async () => {
    await b.page.setViewportSize({ width: 1366, height: 900 });
    await b.page.goto(`${b.tk.url}/svc-admin/statistics/funnels?range=custom&date_start=${today()}&date_end=${today()}`);
    await b.page.getByText('No funnels yet.', { exact: false }).waitFor();
    await b.page.getByLabel('Name').fill('Pricing');
    await b.page.getByLabel('Steps, one per line', { exact: false }).fill('/\nnot a goal');
    await b.page.getByRole('button', { name: 'Add funnel' }).click();
    await b.page.getByText('Not a page path or a goal title: not a goal.', { exact: false }).waitFor();
    await b.page.getByLabel('Steps, one per line', { exact: false }).fill('/\n/pricing*');
    await b.page.getByRole('button', { name: 'Add funnel' }).click();
    await b.page.getByText('Funnel "Pricing" added.').waitFor();
    await b.page.locator('.funnel-step').nth(1).waitFor();
    await settled();
    expect(await figures()).toEqual(['2 visitors · 100%', '1 visitor · 50%']);
    await expect(b.page.locator('.funnel-step .step-drop').nth(1).textContent()).resolves.toBe('Drop-off 1 (50%) from the step before');
    fs.mkdirSync(OUTPUT, { recursive: true });
    await b.page.screenshot({ path: path.join(OUTPUT, 'funnels-1366.png'), fullPage: true });
  }, 60_000);

  it('follows the filters and the period of the address, and fits a phone (390 px)', async () => {
    await b.page.setViewportSize({ width: 390, height: 844 });
    const filters = encodeURIComponent(JSON.stringify({ referrer: GOOGLE }));
    await b.page.goto(`${b.tk.url}/svc-admin/statistics/funnels?range=custom&date_start=${today()}&date_end=${today()}&filters=${filters}`);
    await b.page.locator('.funnel-step').nth(1).waitFor();
    await settled();
    expect(await figures()).toEqual(['1 visitor · 100%', '1 visitor · 100%']);
    expect(await b.page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
    await b.page.screenshot({ path: path.join(OUTPUT, 'funnels-390.png'), fullPage: true });
    await b.page.goto(`${b.tk.url}/svc-admin/statistics/funnels?range=custom&date_start=2020-01-01&date_end=2020-01-01`);
    await b.page.locator('.funnel-step').nth(1).waitFor();
    await settled();
    expect(await figures()).toEqual(['0 visitors · 0%', '0 visitors · 0%']);
  }, 60_000);

  it('opens from the statistics tab on the same period', async () => {
    await b.page.setViewportSize({ width: 1366, height: 900 });
    await b.page.goto(`${b.tk.url}/svc-admin/statistics?range=custom&date_start=${today()}&date_end=${today()}`);
    await b.page.locator('[data-funnels-link]').click();
    await b.page.waitForURL(/\/statistics\/funnels\?/);
    expect(new URL(b.page.url()).searchParams.get('date_start')).toBe(today());
    await b.page.locator('.funnel-step').nth(1).waitFor();
  }, 60_000);
});
