/// <reference lib="dom" />
import { ManualClock } from '../../../core';
import { browserSuite, describeBrowser } from '../../../test/helpers/browser';
import { createTestKernel } from '../../../test/helpers/test-kernel';

const STEP = 15_000;
const quiet = { out: () => undefined, err: () => undefined, progress: () => undefined };

describeBrowser('the share links form does nothing by accident', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking', 'sources', 'reports', 'story'], env: { SVC_LICENSE: 'creator' }, clock: new ManualClock(Date.now()) });
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '7', '--visitors', '10', '--seed', '4'], quiet)).toBe(0);
      return tk;
    },
    { timeout: STEP, startMs: 90_000 },
  );
  const activeLinks = async () => (await b.tk.kernel.db.select(`SELECT token FROM ${b.tk.kernel.db.quote(b.tk.kernel.db.table('share_tokens'))}`)).length;

  it('makes no link from an empty form, and says why next to the pages', async () => {
    await b.page.goto('/svc-admin/share');
    await b.page.locator('[data-filters]').fill('');
    await b.page.locator('[data-view-url]').fill('');
    for (const box of await b.page.locator('input[name=tabs]').all()) await box.uncheck();
    await Promise.all([b.page.waitForLoadState('domcontentloaded'), b.page.getByRole('button', { name: 'Create link' }).click()]);
    await expect(b.page.locator('#error-tabs').textContent()).resolves.toBe('Tick at least one page to share.');
    await expect(b.page.getByRole('alert').first().textContent()).resolves.toContain('No link was made');
    expect(await activeLinks()).toBe(0);
  }, 30_000);

  it('makes a link without filters when the starting filters are cleared', async () => {
    await b.page.goto('/svc-admin/statistics');
    await b.page.locator('[data-table="pages"] .row-filter').first().click();
    await b.page.waitForFunction(() => new URL(location.href).searchParams.has('filters'));
    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Share links' }).click();
    await expect(b.page.locator('[data-filters]').inputValue()).resolves.toMatch(/^page_url: /);
    expect(await b.page.locator('[data-view-url]').inputValue()).toContain('filters=');
    await b.page.locator('[data-filters]').fill('');
    await Promise.all([b.page.waitForURL(/created=[a-f0-9]{32}/), b.page.getByRole('button', { name: 'Create link' }).click()]);
    const url = await b.page.locator('[data-link-field]').inputValue();
    expect(new URL(url).searchParams.has('filters')).toBe(false);
    const viewer = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const shared = await viewer.newPage();
    await shared.goto(url);
    await shared.locator('[data-table="pages"] tbody tr').first().waitFor({ timeout: STEP });
    await expect(shared.locator('[data-filters] .chip').count()).resolves.toBe(0);
    expect(new URL(shared.url()).searchParams.has('filters')).toBe(false);
    await viewer.close();
  }, 40_000);

  it('asks before revoking a link', async () => {
    await b.page.goto('/svc-admin/share');
    const questions: string[] = [];
    b.page.once('dialog', (d) => void (questions.push(d.message()), d.dismiss()));
    await b.page.locator('[data-links]').getByRole('button', { name: 'Revoke' }).first().click();
    expect(questions).toEqual(['Revoke this link? Whoever has it loses access at once; this cannot be undone.']);
    expect(await activeLinks()).toBe(1);
    b.page.once('dialog', (d) => void d.accept());
    await Promise.all([b.page.waitForURL(/done=revoked/), b.page.locator('[data-links]').getByRole('button', { name: 'Revoke' }).first().click()]);
    expect(await activeLinks()).toBe(0);
  }, 30_000);
});
