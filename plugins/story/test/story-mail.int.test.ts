import fs from 'node:fs';
import path from 'node:path';
import { ManualClock } from '../../../core';
import { type TestDnsServer, type TestSmtpServer, startDnsServer, startSmtpServer } from '../../../test/helpers/outside-servers';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { follow } from './support';

const OUTPUT = path.join(__dirname, '..', '..', '..', 'test-output');

/** The reports plugin's story format, rendered and sent with a real link from this plugin. */
describe('story mails', () => {
  let tk: TestKernel;
  let smtp: TestSmtpServer;
  let dns: TestDnsServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dns = await startDnsServer({ 'example.com': { mx: ['mx.example.com'] } });
    tk = await createTestKernel({
      plugins: ['tracking', 'reports', 'story'],
      clock: new ManualClock('2026-03-02T08:30:00Z'),
      env: { SVC_LICENSE: 'creator', SVC_SMTP_URL: smtp.url, SVC_DNS_SERVERS: dns.server },
    });
  });
  afterAll(async () => {
    await tk?.close();
    await smtp?.close();
    await dns?.close();
  });

  it('sends a teaser whose button opens the report story, and the link works without signing in', async () => {
    const user = (await tk.kernel.users.findByLogin(tk.admin.login))!;
    const admin = tk.client().withBasic(user.login, (await tk.kernel.appPasswords.create(user, 'mail')).password);
    const created = await admin.post(`${tk.api}/do_action/report/create`, {
      json: { report: { name: 'Monday story', format: 'story', recipients: ['owner@example.com'], content: [{ id: 'compare' }, { id: 'pages', comment_text: 'Top pages.' }] } },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.report.id as number;
    const sent = await admin.post(`${tk.api}/do_action/report/send-test-report`, { json: { id } });
    expect(sent.status).toBe(200);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!.parsed;
    const html = mail.html ?? '';
    fs.mkdirSync(OUTPUT, { recursive: true });
    fs.writeFileSync(path.join(OUTPUT, 'story-mail.html'), html);

    const link = new RegExp(`href="(${tk.url.replace(/[.:/]/g, '\\$&')}/svc-dashboard/story/\\?svc_share_token=([a-f0-9]{32}))"[^>]*>View the report</a>`).exec(html);
    expect(link).not.toBeNull();
    expect(mail.text).toContain(link![1]);
    const listed = await admin.post(`${tk.api}/do_action/list_share_links`, { json: {} });
    expect(listed.body.share_links.filter((l: { report_id: number }) => l.report_id === id).map((l: { token: string }) => l.token)).toEqual([link![2]]);

    const page = await follow(tk.client(), link![1]!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Monday story</h1>');
    expect(page.text).toContain('Top pages.');
    expect(page.text).not.toContain('owner@example.com');

    // The next mail, a day later, carries the same link.
    (tk.clock as ManualClock).advance(86400);
    expect((await admin.post(`${tk.api}/do_action/report/send-test-report`, { json: { id } })).status).toBe(200);
    const next = smtp.received[1]!.parsed;
    expect(next.html).toContain(link![1]);
  });
});
