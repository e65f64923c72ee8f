/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CliIO } from '../../core/cli/command';
import { ManualClock } from '../../core/clock';
import { describeBrowser, launchBrowser } from '../helpers/browser';
import { ALL_PLUGINS, type TestKernel, createTestKernel } from '../helpers/test-kernel';

const STEP = 15_000;
const quiet: CliIO = { out: () => undefined, err: () => undefined, progress: () => undefined };

/** Every data panel of a dashboard page has finished: nothing loading, no error state. */
async function panelsSettled(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.querySelectorAll('.state.loading, [aria-busy="true"]').length === 0, undefined, { timeout: STEP });
  return page.locator('.state.error').allTextContents();
}

describeBrowser('the admin opened at another address than SVC_BASE_URL', () => {
  let tk: TestKernel;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    tk = await createTestKernel({
      plugins: ALL_PLUGINS,
      env: { SVC_LICENSE: 'business' },
      clock: new ManualClock(Date.now()),
      baseUrl: (port) => `http://localhost:${port}`,
    });
    expect(await tk.kernel.commands.get('demo')!.run(['--days', '10', '--visitors', '10', '--seed', '3'], quiet)).toBe(0);
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: tk.url, viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(STEP);
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  }, 120_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });

  it('is served from 127.0.0.1 while SVC_BASE_URL names localhost', () => {
    expect(new URL(tk.url).hostname).toBe('127.0.0.1');
    expect(tk.kernel.config.baseUrl).toMatch(/^http:\/\/localhost:\d+$/);
  });

  it('signs in and says once that the address differs from SVC_BASE_URL', async () => {
    await page.goto('/svc-admin/login');
    await page.getByLabel('User name').fill(tk.admin.login);
    await page.getByLabel('Password').fill(tk.admin.password);
    await Promise.all([page.waitForURL('**/svc-admin/statistics**'), page.getByRole('button', { name: 'Sign in' }).click()]);
    const notice = page.locator('[data-origin-notice]');
    await expect(notice.textContent()).resolves.toContain(tk.kernel.config.baseUrl);
    await expect(notice.textContent()).resolves.toContain(new URL(tk.url).origin);
    await page.goto('/svc-admin/settings');
    await expect(page.locator('[data-origin-notice]').count()).resolves.toBe(0);
  }, 60_000);

  it.each(['statistics', 'sources', 'sales', 'statistics/goals'])('loads every panel of %s from the address it was opened at', async (tab) => {
    const calls: string[] = [];
    const onRequest = (r: { url(): string }) => r.url().includes('/wp-json/') && calls.push(new URL(r.url()).origin);
    page.on('request', onRequest);
    await page.goto(`/svc-admin/${tab}`);
    expect(await panelsSettled(page)).toEqual([]);
    page.off('request', onRequest);
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls)).toEqual(new Set([new URL(tk.url).origin]));
    await expect(page.getByText('Failed to fetch').count()).resolves.toBe(0);
  }, 60_000);

  it('serves a share link opened at 127.0.0.1 with working panels', async () => {
    const admin = (await tk.kernel.users.findByLogin(tk.admin.login))!;
    const { password } = await tk.kernel.appPasswords.create(admin, 'origin test');
    const res = await tk.client().withBasic(admin.login, password).post<{ share_url: string }>(`${tk.api}/do_action/get_share_token`, {
      json: { shared_tabs: ['statistics'] },
    });
    expect(res.status).toBe(200);
    const link = new URL(res.body.share_url);
    expect(link.origin).toBe(tk.kernel.config.baseUrl);
    const viewer = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const shared = await viewer.newPage();
    shared.on('pageerror', (e) => problems.push(e.message));
    await shared.goto(`${tk.url}${link.pathname}${link.search}`);
    await shared.locator('[data-table="pages"] tbody tr').first().waitFor({ timeout: STEP });
    expect(await panelsSettled(shared)).toEqual([]);
    await viewer.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
