/// <reference lib="dom" />
import { ManualClock } from '../../core/clock';
import { browserSuite, describeBrowser } from '../helpers/browser';
import type { HttpClient } from '../helpers/http-client';
import { createTestKernel } from '../helpers/test-kernel';
import { at } from '../helpers/time';

const STEP = 15_000;

/** Links the service sends people (report mails, quick wins) open the dashboard on the period they describe. */
describeBrowser('dashboard links', () => {
  let admin: HttpClient;
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking', 'reports', 'sales'], env: { SVC_LICENSE: 'business' }, clock: new ManualClock('2025-04-30T12:00:00Z') });
      const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
      admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 'links')).password);
      const mug = { product_id: 1, product_name: 'Mug', quantity: 2, price: 10 };
      const orders = ['03', '12', '20'].map((day) => ({ type: 'order', order_id: `O${day}`, currency: 'EUR', total: 20, items: [mug], time: at(`2025-03-${day}T10:00:00`) }));
      expect((await admin.post(`${tk.api}/ecommerce/events`, { json: { events: orders } })).body.accepted).toBe(3);
      return tk;
    },
    { timeout: STEP },
  );

  const opensOn = async (link: string, path: string, period: string) => {
    await b.page.goto(link);
    await b.page.waitForURL(`**${path}**`);
    const section = new URL(link).hash;
    await b.page.waitForFunction((text) => document.querySelector('[data-period]')?.textContent === text, period, { timeout: STEP });
    expect(await b.page.locator('select[name=preset]').inputValue()).toBe('custom');
    expect(await b.page.locator('input[name=date_start]').inputValue()).toBe(period.slice(0, 10));
    expect(new URL(b.page.url()).hash).toBe(section);
  };

  it('"View details" of a report mail opens the block\'s page on the report\'s period', async () => {
    const created = await admin.post(`${b.tk.api}/do_action/report/create`, {
      json: { report: { name: 'Monthly', reportDateRange: 'last_month', recipients: ['owner@example.com'], content: [{ id: 'pages' }] } },
    });
    const html: string = (await admin.post(`${b.tk.api}/do_action/report/preview`, { json: { id: created.body.data.report.id } })).body.data.html;
    const details = /<a href="([^"]+)"[^>]*>\s*View details/.exec(html)![1]!.replaceAll('&amp;', '&');
    await opensOn(details, '/svc-admin/statistics', '2025-03-01 – 2025-03-31');
  }, 40_000);

  it('"Show in the dashboard" of a quick win opens the sales tab on the analysed period', async () => {
    const wins = (await admin.get(`${b.tk.api}/data/ecommerce/quick-wins`, { query: { date_start: '2025-03-01', date_end: '2025-03-31' } })).body.data.quickWins;
    expect(wins.map((w: { key: string }) => w.key)).toContain('top_product_1');
    // The analysed window starts on the first order's day: ecommerce data counts from there (ecommerce.md §4.2 clamping).
    await opensOn(wins[0].url, '/svc-admin/sales', '2025-03-03 – 2025-03-31');
    await b.page.getByRole('link', { name: 'Show in the dashboard' }).first().waitFor();
    expect(await b.page.getByRole('link', { name: 'Show in the dashboard' }).first().getAttribute('href')).toContain('range=custom&date_start=2025-03-03&date_end=2025-03-31#');
  }, 40_000);
});
