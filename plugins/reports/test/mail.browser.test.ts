/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport } from './support/helpers';
import { insertVisits } from './support/traffic';

const OUT = path.resolve(__dirname, '..', '..', '..', 'test-output');

describe('a classic report mail in a browser', () => {
  let k: ReportsTestKernel;
  let browser: Browser;
  let html: string;

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    k = await startReportsKernel({ now: '2026-03-02T08:30:00Z' });
    await insertVisits(k.tk.kernel.db, 'UTC', [
      { at: '2026-02-23T10:00', url: '/', referrer: 'https://www.google.com/' },
      { at: '2026-02-24T10:00', url: '/pricing' },
      { at: '2026-02-25T10:00', url: '/"><img src=x onerror="window.__pwned=1">' },
    ]);
    const id = await createReport(k, { name: 'Weekly summary', content: [{ id: 'compare' }, { id: 'pages' }, { id: 'referrers' }] });
    html = (await k.action('preview', { id })).body.data.html;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await k?.close();
  });

  it.each([
    ['light', 700, 'logo-light', 'logo-dark'],
    ['dark', 700, 'logo-dark', 'logo-light'],
    ['light', 375, 'logo-light', 'logo-dark'],
  ] as const)('in %s mode %d px wide: shows the matching logo, runs no tracked markup, needs no sideways scrolling', async (scheme, width, shown, hidden) => {
    const viewport = { width, height: 1100 };
    const page = await browser.newPage({ viewport, colorScheme: scheme });
    page.setDefaultTimeout(10_000);
    try {
      await page.setContent(html, { waitUntil: 'load', timeout: 10_000 });
      const visible = (cls: string) => page.$eval(`img.${cls}`, (img) => getComputedStyle(img).display !== 'none' && (img as HTMLImageElement).naturalWidth > 0);
      expect(await visible(shown)).toBe(true);
      expect(await page.$eval(`img.${hidden}`, (img) => getComputedStyle(img).display)).toBe('none');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: path.join(OUT, `reports-classic-${scheme}-${viewport.width}.png`), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
