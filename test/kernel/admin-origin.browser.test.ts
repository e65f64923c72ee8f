/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import type { CliIO } from '../../core/cli/command';
import { ManualClock } from '../../core/clock';
import { browserSuite, describeBrowser } from '../helpers/browser';
import { ALL_PLUGINS, createTestKernel } from '../helpers/test-kernel';

const STEP = 15_000;
const quiet: CliIO = { out: () => undefined, err: () => undefined, progress: () => undefined };

/** Every data panel of a dashboard page has finished: nothing loading, no error state. */
async function panelsSettled(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.querySelectorAll('.state.loading, [aria-busy="true"]').length === 0, undefined, { timeout: STEP });
  return page.locator('.state.error').allTextContents();
}

describeBrowser('the admin opened at another address than SVC_BASE_URL', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({
        plugins: ALL_PLUGINS,
        env: { SVC_LICENSE: 'business' },
        clock: new ManualClock(Date.now()),
        baseUrl: (port) => `http://localhost:${port}`,
      });
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '10', '--visitors', '10', '--seed', '3'], quiet)).toBe(0);
      return tk;
    },
    { signIn: false, device: { viewport: { width: 1366, height: 900 } }, timeout: STEP, consoleErrors: true, startMs: 120_000 },
  );

  it('is served from 127.0.0.1 while SVC_BASE_URL names localhost', () => {
    expect(new URL(b.tk.url).hostname).toBe('127.0.0.1');
    expect(b.tk.kernel.config.baseUrl).toMatch(/^http:\/\/localhost:\d+$/);
  });

  it('signs in and says once that the address differs from SVC_BASE_URL', async () => {
    await b.page.goto('/svc-admin/login');
    await b.page.getByLabel('User name').fill(b.tk.admin.login);
    await b.page.getByLabel('Password').fill(b.tk.admin.password);
    await Promise.all([b.page.waitForURL('**/svc-admin/statistics**'), b.page.getByRole('button', { name: 'Sign in' }).click()]);
    const notice = b.page.locator('[data-origin-notice]');
    await expect(notice.textContent()).resolves.toContain(b.tk.kernel.config.baseUrl);
    await expect(notice.textContent()).resolves.toContain(new URL(b.tk.url).origin);
    await b.page.goto('/svc-admin/settings');
    await expect(b.page.locator('[data-origin-notice]').count()).resolves.toBe(0);
  }, 60_000);

  it.each(['statistics', 'sources', 'sales', 'statistics/goals'])('loads every panel of %s from the address it was opened at', async (tab) => {
    const calls: string[] = [];
    const onRequest = (r: { url(): string }) => r.url().includes('/wp-json/') && calls.push(new URL(r.url()).origin);
    b.page.on('request', onRequest);
    await b.page.goto(`/svc-admin/${tab}`);
    expect(await panelsSettled(b.page)).toEqual([]);
    b.page.off('request', onRequest);
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls)).toEqual(new Set([new URL(b.tk.url).origin]));
    await expect(b.page.getByText('Failed to fetch').count()).resolves.toBe(0);
  }, 60_000);

  it('serves a share link opened at 127.0.0.1 with working panels', async () => {
    const admin = (await b.tk.kernel.users.findByLogin(b.tk.admin.login))!;
    const { password } = await b.tk.kernel.appPasswords.create(admin, 'origin test');
    const res = await b.tk.client().withBasic(admin.login, password).post<{ share_url: string }>(`${b.tk.api}/do_action/get_share_token`, {
      json: { shared_tabs: ['statistics'] },
    });
    expect(res.status).toBe(200);
    const link = new URL(res.body.share_url);
    expect(link.origin).toBe(b.tk.kernel.config.baseUrl);
    const viewer = await b.browser.newContext({ viewport: { width: 1366, height: 900 } });
    const shared = await viewer.newPage();
    shared.on('pageerror', (e) => b.problems.push(e.message));
    await shared.goto(`${b.tk.url}${link.pathname}${link.search}`);
    await shared.locator('[data-table="pages"] tbody tr').first().waitFor({ timeout: STEP });
    expect(await panelsSettled(shared)).toEqual([]);
    await viewer.close();
    expect(b.problems).toEqual([]);
  }, 60_000);
});
