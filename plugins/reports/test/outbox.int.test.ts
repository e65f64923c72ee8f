import fs from 'node:fs';
import path from 'node:path';
import { ManualClock } from '../../../core';
import { type TestDnsServer, startDnsServer } from '../../../test/helpers/outside-servers';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

describe('reports without SMTP: the outbox', () => {
  let dns: TestDnsServer;
  let tk: TestKernel;
  beforeAll(async () => {
    dns = await startDnsServer({});
    tk = await createTestKernel({
      plugins: ['tracking', 'reports'],
      clock: new ManualClock('2026-03-02T08:00:00Z'),
      env: { SVC_LICENSE: 'creator', SVC_DNS_SERVERS: dns.server },
    });
  });
  afterAll(async () => {
    await tk?.close();
    await dns?.close();
  });

  it('writes a test send to the outbox although the recipient domain does not resolve', async () => {
    const admin = (await tk.kernel.users.findByLogin(tk.admin.login))!;
    const client = tk.client().withBasic(admin.login, (await tk.kernel.appPasswords.create(admin, 'outbox')).password);
    const created = await client.post(`${tk.api}/do_action/report/create`, {
      json: { report: { name: 'Local test', recipients: ['owner@made-up.test'], content: [{ id: 'compare' }] } },
    });
    expect(created.status).toBe(200);
    const sent = await client.post(`${tk.api}/do_action/report/send-test-report`, { json: { id: created.body.data.report.id } });
    expect(sent.status).toBe(200);
    expect(sent.body.data.queue).toMatchObject({ status: 'sending_successful' });
    const outbox = path.join(tk.dataDir, 'outbox');
    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(outbox, files[0]!), 'utf8')).toMatch(/^To: owner@made-up\.test$/m);
    expect(dns.queries).toEqual([]);
  });

  it('still checks domains when mail really leaves (the mailer says whether it delivers)', async () => {
    expect(tk.kernel.mailer.delivers).toBe(false);
    expect(await tk.kernel.mailer.checkRecipientDomain('owner@made-up.test')).toBe(false);
  });
});
