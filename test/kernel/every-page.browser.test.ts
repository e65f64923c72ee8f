/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CliIO } from '../../core/cli/command';
import { ManualClock } from '../../core/clock';
import { describeBrowser, launchBrowser } from '../helpers/browser';
import type { HttpClient } from '../helpers/http-client';
import { ALL_PLUGINS, type TestKernel, createTestKernel } from '../helpers/test-kernel';

const SHOTS = path.resolve(__dirname, '..', '..', 'test-output', 'pages');
const STEP = 20_000;
const quiet: CliIO = { out: () => undefined, err: () => undefined, progress: () => undefined };
const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1366, height: 900 }, isMobile: false, hasTouch: false },
] as const;

/** What a page must not do at any width: scroll sideways, or break a word inside a table cell. */
interface Layout {
  scrollWidth: number;
  innerWidth: number;
  /** `word (cell text)` of every word that runs over two lines inside a table cell. */
  brokenWords: string[];
  /** Headers of the cards whose table scrolls inside its own box. */
  scrollingTables: string[];
}

function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const brokenWords: string[] = [];
    for (const cell of document.querySelectorAll('td, th')) {
      if (cell.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Text inside a closed <details> or otherwise not shown has no lines to break.
        if (!node.parentElement?.checkVisibility()) continue;
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) brokenWords.push(`${word[0]} (${(cell.textContent ?? '').trim().slice(0, 60)})`);
        }
      }
    }
    const scrollingTables = [...document.querySelectorAll<HTMLElement>('.table-wrap')]
      .filter((box) => box.scrollWidth > box.clientWidth + 1)
      .map((box) => (box.closest('.card')?.querySelector('h2, h1')?.textContent ?? '?').trim());
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth, brokenWords, scrollingTables };
  });
}

/** Waits until no panel of a dashboard page is loading. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('.state.loading, [aria-busy="true"]').length === 0, undefined, { timeout: STEP });
}

describeBrowser('every admin and share page on a phone and a desktop', () => {
  let tk: TestKernel;
  let browser: Browser;
  const pages: Array<{ name: string; path: string; signedIn: boolean }> = [];
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    tk = await createTestKernel({ plugins: ALL_PLUGINS, env: { SVC_LICENSE: 'business' }, clock: new ManualClock(Date.now()) });
    expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '20', '--seed', '11'], quiet)).toBe(0);
    await tk.kernel.statistics.folder.foldPending();
    const admin = (await tk.kernel.users.findByLogin(tk.admin.login))!;
    await tk.kernel.appPasswords.create(admin, 'deploy script on the build server');
    const { password } = await tk.kernel.appPasswords.create(admin, 'page tour');
    const api: HttpClient = tk.client().withBasic(admin.login, password);
    await tk.kernel.users.create({ login: 'editor.with.a.long.name@example.org', email: 'editor.with.a.long.name@example.org', role: 'editor', password: 'editor-password' });

    const report = async (format: string) => {
      const created = await api.post(`${tk.api}/do_action/report/create`, {
        json: { report: { name: `Weekly ${format} summary for the marketing team`, format, recipients: ['owner@example.org', 'marketing.team@example.org'], content: [{ id: 'compare' }, { id: 'pages' }, { id: 'referrers' }] } },
      });
      expect(created.status).toBe(200);
      return Number(created.body.data.report.id);
    };
    const classic = await report('classic');
    const story = await report('story');
    expect((await api.post(`${tk.api}/do_action/report/send-test-report`, { json: { id: classic } })).status).toBe(200);
    const dashboard = await api.post(`${tk.api}/do_action/get_share_token`, {
      json: { shared_tabs: ['statistics', 'sources', 'sales'], permissions: { can_change_date: true, can_filter: true } },
    });
    const storyLink = await api.post(`${tk.api}/do_action/get_share_token`, { json: { report_id: story } });
    const token = dashboard.body.share_token as string;

    // A second site, so every page shows the site switcher in its header.
    await tk.kernel.sites.add({ name: 'Second site with a long name', domain: 'second.example' });
    pages.push(
      { name: 'login', path: '/svc-admin/login', signedIn: false },
      ...['statistics', 'statistics/goals', 'statistics/live', 'sources', 'sales', 'reports', 'reports/new', `reports/${classic}`, `reports/${classic}/preview`, 'reports/logs', 'share', 'settings', 'plugins', 'sites', 'users', 'account'].map((p) => ({
        name: p.replace(/\//g, '-'),
        path: `/svc-admin/${p}`,
        signedIn: true,
      })),
      ...['statistics', 'sources', 'sales'].map((tab) => ({ name: `shared-${tab}`, path: `/svc-dashboard/${tab}/?svc_share_token=${token}`, signedIn: false })),
      { name: 'shared-story', path: new URL(storyLink.body.share_url as string).pathname + new URL(storyLink.body.share_url as string).search, signedIn: false },
      { name: 'shared-gone', path: `/svc-dashboard/statistics/?svc_share_token=${'0'.repeat(32)}`, signedIn: false },
      { name: 'not-found', path: '/svc-admin/no-such-page', signedIn: true },
    );
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  for (const size of SIZES) {
    describe(`at ${size.viewport.width}x${size.viewport.height}`, () => {
      let admin: BrowserContext;
      let visitor: BrowserContext;

      beforeAll(async () => {
        admin = await browser.newContext({ ...size, baseURL: tk.url });
        visitor = await browser.newContext({ ...size, baseURL: tk.url });
        for (const context of [admin, visitor]) context.setDefaultTimeout(STEP);
        const page = await admin.newPage();
        await page.goto('/svc-admin/login');
        await page.getByLabel('User name').fill(tk.admin.login);
        await page.getByLabel('Password').fill(tk.admin.password);
        await Promise.all([page.waitForURL('**/svc-admin/statistics**'), page.getByRole('button', { name: 'Sign in' }).click()]);
        await page.close();
      }, 60_000);
      afterAll(async () => {
        await admin?.close().catch(() => undefined);
        await visitor?.close().catch(() => undefined);
      });

      it('scrolls no page sideways and breaks no word inside a table cell (document.scrollingElement.scrollWidth <= innerWidth)', async () => {
        const failures: string[] = [];
        for (const entry of pages) {
          const page = await (entry.signedIn ? admin : visitor).newPage();
          page.on('pageerror', (e) => problems.push(`${entry.name}: ${e.message}`));
          await page.goto(entry.path);
          await settled(page);
          const layout = await measure(page);
          await page.screenshot({ path: path.join(SHOTS, `${size.name}-${entry.name}.png`), fullPage: true, timeout: STEP });
          if (layout.scrollWidth > layout.innerWidth) failures.push(`${entry.name}: the page is ${layout.scrollWidth}px wide in a ${layout.innerWidth}px window`);
          if (layout.brokenWords.length) failures.push(`${entry.name}: words broken in table cells: ${layout.brokenWords.slice(0, 5).join('; ')}`);
          // On a phone a wide table may scroll inside its box; a desktop has room for every table.
          if (size.name === 'desktop' && layout.scrollingTables.length) failures.push(`${entry.name}: tables scrolling in their box: ${layout.scrollingTables.join(', ')}`);
          await page.close();
        }
        expect(failures).toEqual([]);
        expect(problems).toEqual([]);
      }, 240_000);
    });
  }
});
