/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEFAULT_SITE_ID } from '../../../core';
import { browserSuite, describeBrowser, signedInPage } from '../../../test/helpers/browser';
import { createTestKernel } from '../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', 'test-output');

describeBrowser('share links in a browser', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking', 'sources', 'reports', 'story'], env: { SVC_TIMEZONE: 'UTC', SVC_LICENSE: 'creator' } });
      const quiet = { out: () => undefined, err: (line: string) => console.error(line), progress: () => undefined };
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '25', '--seed', '7'], quiet)).toBe(0);
      await tk.kernel.statistics.folder.foldPending();
      return tk;
    },
    { startMs: 120_000 },
  );
  beforeAll(() => b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.tk.url }));

  /** A page in a fresh context: a visitor with no cookies. */
  const visitor = async (): Promise<Page> => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    return page;
  };
  const basic = async () => {
    const user = (await b.tk.kernel.users.findByLogin(b.tk.admin.login))!;
    return b.tk.client().withBasic(user.login, (await b.tk.kernel.appPasswords.create(user, `browser ${Date.now()}`)).password);
  };

  it('creates a link from the dashboard view the admin was looking at, and copies it', async () => {
    await b.page.waitForSelector('[data-table="pages"] .row-filter');
    await b.page.selectOption('select[name=preset]', 'last_7_days');
    await b.page.waitForFunction(() => new URL(location.href).searchParams.get('range') === 'last_7_days');
    const first = (await b.page.locator('[data-table="pages"] .row-filter').first().textContent())!;
    await b.page.locator('[data-table="pages"] .row-filter').first().click();
    await b.page.waitForSelector('[data-filters] .chip');
    const view = b.page.url();

    await b.page.click('nav.menu a:has-text("Share links")');
    await b.page.waitForSelector('[data-share-form]');
    // The form is in the page's HTML; its script fills it in from the last view once it runs.
    await b.page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-view-url]')?.value !== '');
    expect(await b.page.inputValue('[data-view-url]')).toBe(view);
    expect(await b.page.inputValue('[data-filters]')).toBe(`page_url: ${first}`);
    expect(await b.page.inputValue('[data-date-end]')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await b.page.isChecked('input[name=tabs][value=statistics]')).toBe(true);
    await Promise.all([b.page.waitForURL(/created=[a-f0-9]{32}/), b.page.click('[data-share-form] button[type=submit]')]);
    const url = await b.page.inputValue('[data-link-field]');
    expect(url).toMatch(/\/svc-dashboard\/statistics\/\?svc_share_token=[a-f0-9]{32}&range=last_7_days/);
    await b.page.click('[data-created] [data-copy]');
    await b.page.waitForFunction(() => /Copied|Ctrl\+C/.test(document.querySelector('[data-created] [data-copy]')?.textContent ?? ''));
    expect(await b.page.locator('[data-links] tbody tr').count()).toBeGreaterThan(0);

    const page = await visitor();
    await page.goto(url);
    await page.waitForSelector('[data-metric="visitors"]');
    expect(new URL(page.url()).pathname).toBe('/svc-dashboard/statistics/');
    expect(new URL(page.url()).searchParams.get('svc_share_token')).toBe(/svc_share_token=([a-f0-9]{32})/.exec(url)![1]);
    // No period picker and no filter changes: the link fixes both.
    expect(await page.isHidden('[data-range]')).toBe(true);
    expect(await page.textContent('[data-filters] .chip')).toContain(first);
    expect(await page.locator('[data-filters] button').count()).toBe(0);
    await page.waitForFunction(() => document.querySelectorAll('[data-table="pages"] tbody tr').length === 1);
    await page.locator('[data-table="pages"] .row-filter').first().click();
    expect(new URL(page.url()).searchParams.get('filters')).toBe(JSON.stringify({ page_url: first }));
    const menu = await page.locator('nav.menu a').allTextContents();
    expect(menu).toEqual(['Statistics']);
    await page.reload();
    await page.waitForSelector('[data-metric="visitors"]');
    await page.waitForSelector('[data-table="pages"] table');
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-live]')?.textContent ?? ''));
    await page.waitForFunction(() => document.querySelectorAll('.state.loading').length === 0);
    expect(await page.locator('.state.error').count()).toBe(0);
    fs.mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, 'share-dashboard.png'), fullPage: true });
    await page.context().close();
  });

  it('upgrades a legacy hash link to the path form and lets an open link change the period', async () => {
    const client = await basic();
    const made = await client.post(`${b.tk.api}/do_action/get_share_token`, { json: { shared_tabs: ['statistics', 'sources'], permissions: { can_change_date: true, can_filter: true } } });
    const token = made.body.share_token as string;
    const page = await visitor();
    await page.goto(`${b.tk.url}/svc-dashboard/?svc_share_token=${token}#/sources?range=last_month`);
    await page.waitForURL(/\/svc-dashboard\/sources\//);
    const url = new URL(page.url());
    expect(url.searchParams.get('svc_share_token')).toBe(token);
    expect(url.searchParams.get('range')).toBe('last_month');
    expect(url.hash).toBe('');
    await page.waitForSelector('#svc-sources [data-channels] .metric-card, #svc-sources [data-channels] .state');
    expect(await page.isVisible('select[name=preset]')).toBe(true);
    expect(await page.locator('nav.menu a').allTextContents()).toEqual(['Statistics', 'Sources']);
    await page.click('nav.menu a:has-text("Statistics")');
    await page.waitForURL(/\/svc-dashboard\/statistics\/\?svc_share_token=/);
    await page.waitForSelector('[data-metric="visitors"]');
    await page.selectOption('select[name=preset]', 'last_7_days');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('range') === 'last_7_days');
    expect(new URL(page.url()).searchParams.get('svc_share_token')).toBe(token);

    const bad = await visitor();
    await bad.goto(`${b.tk.url}/svc-dashboard/?svc_share_token=${token}#/subscriptions`);
    await bad.waitForURL(/\/svc-dashboard\/statistics\//);
    await bad.context().close();
    await page.context().close();
  });

  it('shows a report story on one printable page', async () => {
    const client = await basic();
    const created = await client.post(`${b.tk.api}/do_action/report/create`, {
      json: {
        report: {
          name: 'March <story>',
          format: 'story',
          reportDateRange: 'last_30_days',
          recipients: ['owner@example.com'],
          content: [
            { id: 'compare', comment_title: 'Good month', comment_text: 'More visitors than before.' },
            { id: 'pages' },
            { id: 'referrers', filters: [{ key: 'page_url', value: '/' }] },
          ],
        },
      },
    });
    const id = created.body.data.report.id as number;
    const url = await b.tk.kernel.services.get('story')!.reportLink(DEFAULT_SITE_ID, id);
    const page = await visitor();
    await page.goto(url);
    await page.waitForSelector('[data-block="compare"] .metric-card');
    await page.waitForSelector('[data-block="compare"] canvas');
    await page.waitForSelector('[data-block="pages"] table');
    await page.waitForSelector('[data-block="referrers"] table, [data-block="referrers"] .state.empty');
    expect(await page.textContent('h1')).toBe('March <story>');
    expect(await page.textContent('[data-block="compare"] .story-comment')).toContain('More visitors than before.');
    expect(await page.locator('.state.error').count()).toBe(0);
    fs.mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, 'share-story.png'), fullPage: true });
    await page.emulateMedia({ media: 'print' });
    expect(await page.isHidden('[data-print]')).toBe(true);
    await page.pdf({ path: path.join(OUTPUT, 'share-story.pdf') });
    await page.context().close();
  });

  it('shows the story and the dashboard of a link of another site with that site\'s data, refusing none of its calls', async () => {
    const client = await basic();
    const site = await b.tk.kernel.sites.add({ name: 'Second Site', domain: 'second.example', timezone: 'UTC' });
    const created = await client.post(`${b.tk.api}/do_action/report/create`, {
      json: { site: site.id, report: { name: 'Second story', format: 'story', recipients: ['owner@example.com'], content: [{ id: 'compare' }, { id: 'pages' }] } },
    });
    const url = await b.tk.kernel.services.get('story')!.reportLink(site.id, created.body.data.report.id as number);
    const page = await visitor();
    await page.goto(url);
    await page.waitForSelector('[data-block="compare"] .metric-card');
    await page.waitForSelector('[data-block="pages"] table, [data-block="pages"] .state.empty');
    expect(await page.textContent('.story-site')).toBe('Second Site');
    expect(await page.locator('.state.error').count()).toBe(0);

    const made = await client.post(`${b.tk.api}/do_action/get_share_token`, { json: { site: site.id, shared_tabs: ['statistics'] } });
    await page.goto(made.body.share_url);
    await page.waitForSelector('[data-metric="visitors"]');
    expect(await page.locator('.state.error').count()).toBe(0);
    await page.context().close();
  });

  it('sends a share session that tries another page back to its own tabs', async () => {
    const client = await basic();
    const made = await client.post(`${b.tk.api}/do_action/get_share_token`, { json: { shared_tabs: ['statistics'] } });
    const page = await visitor();
    await page.goto(made.body.share_url);
    await page.waitForSelector('[data-metric="visitors"]');
    await page.goto(`${b.tk.url}/svc-admin/`);
    await page.waitForURL(/\/svc-dashboard\/statistics\//);
    const refused = await page.goto(`${b.tk.url}/svc-admin/settings`);
    expect(refused!.status()).toBe(403);
    await page.context().close();
  });
  it('shows a signed-in person whose rights do not reach a shared page a plain 403 page, on a wide and a phone screen', async () => {
    b.tk.kernel.hooks.addFilter('svc_user_can', (can, user, capability) => (user.login === 'limited' && capability === 'view_svc_statistics' ? false : can), {}, 'story-test');
    await b.tk.kernel.users.create({ login: 'limited', role: 'editor', password: 'limited-password' });
    const made = await (await basic()).post(`${b.tk.api}/do_action/get_share_token`, { json: { shared_tabs: ['statistics'] } });
    const { context, page } = await signedInPage(b.browser, b.tk.url, { login: 'limited', password: 'limited-password' }, { landing: '**/svc-admin/**' });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const answer = await page.goto(made.body.share_url);
      expect(answer!.status()).toBe(403);
      expect(await page.locator('h1').textContent()).toBeTruthy();
      expect(await page.locator('body').textContent()).toMatch(/permission|not allowed|rights|access/i);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: path.join(OUTPUT, `share-403-${width}.png`), fullPage: true });
    }
    await context.close();
  });
});
