/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { ManualClock } from '../../../core';
import { PHONE, browserSuite, describeBrowser } from '../../../test/helpers/browser';
import { createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, GOOGLEBOT, pageview, setOptions, track } from './helpers';

const SHOTS = path.resolve(__dirname, '..', '..', '..', 'test-output');
const STEP = 20_000;

describeBrowser('a new site waits for its first pageview on the statistics tab', () => {
  const b = browserSuite(
    async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      return createTestKernel({ plugins: ['tracking'], clock: new ManualClock(Date.now()) });
    },
    { device: { viewport: { width: 1366, height: 900 } }, timeout: STEP },
  );
  beforeAll(() => b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.tk.url }));

  it('shows the line to copy, with a copy button, and waits', async () => {
    const panel = b.page.locator('[data-onboarding]');
    await panel.getByRole('heading', { name: 'Add the tracking script to your site' }).waitFor();
    const snippet = `<script src="${b.tk.url}/svc/embed.js" async></script>`;
    await expect(panel.locator('[data-snippet]').textContent()).resolves.toBe(snippet);
    await panel.getByRole('button', { name: 'Copy' }).click();
    await expect(b.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(snippet);
    await expect(panel.getByRole('status').textContent()).resolves.toMatch(/^Waiting for the first pageview/);
  }, 30_000);

  it('lists the hits that arrived but were dropped, with the reason', async () => {
    await track(b.tk, pageview('https://site.example/pricing', 'crawler', { user_agent: GOOGLEBOT }), { headers: { 'user-agent': GOOGLEBOT } });
    await setOptions(b.tk, { enable_do_not_track: true });
    await track(b.tk, pageview('https://site.example/private', 'careful'), { headers: { 'user-agent': CHROME, dnt: '1' } });
    const drops = b.page.locator('[data-onboarding] [data-drops] li');
    await b.page.locator('[data-onboarding] li[data-reason="do not track"]').waitFor();
    await expect(drops.allTextContents()).resolves.toEqual([
      expect.stringContaining('not counted because the browser sends Do Not Track, and your settings honour it'),
      expect.stringContaining('not counted because the browser says it is a bot or crawler'),
    ]);
    await b.page.screenshot({ path: path.join(SHOTS, 'onboarding-waiting.png'), fullPage: true });
    await b.page.setViewportSize(PHONE.viewport);
    // The chart follows the new width on its next resize event; then nothing may stick out.
    await b.page.waitForFunction(() => document.scrollingElement!.scrollWidth <= innerWidth, undefined, { timeout: 5000 });
    await b.page.screenshot({ path: path.join(SHOTS, 'onboarding-waiting-phone.png'), fullPage: true });
    await b.page.setViewportSize({ width: 1366, height: 900 });
  }, 40_000);

  it('turns live when the first pageview arrives, and fills the panels', async () => {
    await setOptions(b.tk, { enable_do_not_track: false });
    expect((await track(b.tk, pageview('https://site.example/hello-world', 'first'), { headers: { 'user-agent': CHROME } })).status).toBe(200);
    await b.page.locator('[data-onboarding].is-live').waitFor();
    await expect(b.page.locator('[data-onboarding] h2').textContent()).resolves.toBe('Your site is counted');
    await expect(b.page.locator('[data-onboarding] [role="status"]').textContent()).resolves.toMatch(/^Live: the first pageview arrived at .+ \(\/hello-world\)/);
    await expect(b.page.locator('[data-onboarding] [data-drops] li').count()).resolves.toBe(0);
    await b.page.locator('[data-table="pages"] tbody tr').first().waitFor();
    await expect(b.page.locator('[data-table="pages"] td.label').first().textContent()).resolves.toBe('/hello-world');
    await b.page.screenshot({ path: path.join(SHOTS, 'onboarding-live.png'), fullPage: true });
    expect(b.problems).toEqual([]);
  }, 40_000);

  it('is not shown once the site has pageviews', async () => {
    await b.page.reload();
    await b.page.locator('[data-table="pages"] tbody tr').first().waitFor();
    await expect(b.page.locator('[data-onboarding]').isHidden()).resolves.toBe(true);
  }, 30_000);
});
