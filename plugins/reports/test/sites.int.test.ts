import type { Site } from '../../../core';
import type { QueueLog } from '../types';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import type { Json } from './support/json';
import { evaluateAt, runDueAt } from './support/helpers';
import { insertVisits } from './support/traffic';

describe('reports of two sites', () => {
  let k: ReportsTestKernel;
  let shop: Site;
  const ids: Record<string, number> = {};
  const onSite = async (path: string, site?: number) => k.admin.get(`${k.tk.api}${path}`, { query: { svc_nonce: await k.tk.nonce(k.admin), ...(site ? { site } : {}) } });
  const create = async (name: string, site?: number) => {
    const report = { name, frequency: 'daily', sendTime: '09:00', reportDateRange: 'yesterday', recipients: ['owner@example.com'], content: [{ id: 'pages' }] };
    const res = await k.action('create', site ? { site, report } : { report });
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body.data.report.id as number;
  };

  beforeAll(async () => {
    // The install's timezone is UTC; the shop's days end in Auckland (UTC+13 in March).
    k = await startReportsKernel({ timezone: 'UTC', now: '2026-03-02T10:00:00Z' });
    shop = await k.tk.kernel.sites.add({ name: 'Corner Shop', domain: 'shop.example', timezone: 'Pacific/Auckland' });
    await insertVisits(k.tk.kernel.db, 'UTC', [{ at: '2026-03-02T12:00', url: '/blog-only' }, { at: '2026-03-02T13:00', url: '/blog-only' }]);
    // 3 March 08:00 in Auckland is still 2 March in UTC: only the shop's own calendar puts it in its report of 3 March.
    await insertVisits(k.tk.kernel.db, 'Pacific/Auckland', [{ at: '2026-03-03T08:00', url: '/shop-only' }], shop.id);
    ids.blog = await create('Blog daily');
    ids.shop = await create('Shop daily', shop.id);
  });
  afterAll(() => k?.close());

  it('lists and edits each site\'s reports on that site only', async () => {
    const names = async (site?: number) => ((await onSite('/reports', site)).body.data.reports as Json[]).map((r) => r.name);
    expect(await names()).toEqual(['Blog daily']);
    expect(await names(shop.id)).toEqual(['Shop daily']);
    const foreign = await k.action('update', { site: shop.id, report: { id: ids.blog, name: 'Taken over' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('svc_report_not_found');
    expect(await names()).toEqual(['Blog daily']);
    expect((await k.action('delete', { id: ids.shop })).status).toBe(404);
  });

  it('evaluates each report on its site\'s calendar and mails it with that site\'s name and figures only', async () => {
    k.smtp.clear();
    // 20:00 UTC on 3 March is 09:00 on 4 March in Auckland: the blog's window of 3 March (09:00 UTC) and the shop's of 4 March are open.
    await evaluateAt(k, '2026-03-03T20:00:00Z');
    await runDueAt(k, '2026-03-03T20:05:00Z');
    const mails = new Map(k.smtp.received.map((m) => [m.parsed.subject!.split(' · ')[0], m.parsed]));
    expect([...mails.keys()].sort()).toEqual(['Blog daily', 'Shop daily']);

    const shopMail = mails.get('Shop daily')!;
    expect(shopMail.subject).toBe('Shop daily · Corner Shop · 3 Mar 2026');
    expect(shopMail.html).toContain('Here is how Corner Shop did');
    expect(shopMail.html).toContain('/shop-only');
    expect(shopMail.html).not.toContain('/blog-only');
    expect(shopMail.text).toContain('on its recipient list for Corner Shop');
    // Its dashboard links open the admin on the shop; the blog's need no site.
    expect(shopMail.html).toContain(`/svc-admin/statistics?range=custom&amp;date_start=2026-03-03&amp;date_end=2026-03-03&amp;site=${shop.id}`);

    const blogMail = mails.get('Blog daily')!;
    expect(blogMail.subject).toBe(`Blog daily · ${(await k.tk.kernel.sites.default()).name} · 2 Mar 2026`);
    expect(blogMail.html).toContain('/blog-only');
    expect(blogMail.html).not.toContain('/shop-only');
    expect(blogMail.html).not.toContain('site=');

    const sent = async (site?: number) =>
      ((await onSite('/report/logs', site)).body.data.logs as QueueLog[]).filter((l) => l.status === 'sending_successful').map((l) => `${l.report_name} ${l.queue_id}`);
    expect(await sent(shop.id)).toEqual(['Shop daily 2026-03-04']);
    expect(await sent()).toEqual(['Blog daily 2026-03-03']);
  });

  it('removes a site with its reports and all their delivery rows, leaving the other site\'s', async () => {
    const db = k.tk.kernel.db;
    const reportsIn = async (table: string) =>
      (await db.select<{ report_id: number }>(`SELECT DISTINCT report_id FROM ${db.quote(db.table(table))} ORDER BY report_id`)).map((r) => Number(r.report_id));
    const tables = ['report_logs', 'report_queues', 'report_sends', 'report_guards'];
    for (const table of tables) expect(await reportsIn(table)).toEqual([ids.blog, ids.shop]);
    await k.tk.kernel.sites.remove(shop.id);
    for (const table of tables) expect(await reportsIn(table)).toEqual([ids.blog]);
    expect((await db.select(`SELECT ID FROM ${db.quote(db.table('reports'))}`)).map((r) => Number(r.ID))).toEqual([ids.blog]);
  });

  it('answers 404 for a site that does not exist', async () => {
    const res = await onSite('/reports', 999);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_unknown_site');
  });
});
