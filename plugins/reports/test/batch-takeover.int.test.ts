import { SVC_BIN, ensureBuilt, runScript, startScript } from '../../../test/helpers/dist';
import { within } from '../../../test/helpers/wait';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport, evaluateAt, logs } from './support/helpers';

const addresses = (n: number) => Array.from({ length: n }, (_, i) => `reader${i + 1}@example.com`);
const messageIdOf = (raw: string) => /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];

describe('a report batch whose node dies mid-batch', () => {
  let k: ReportsTestKernel;
  let env: Record<string, string>;
  beforeAll(async () => {
    ensureBuilt();
    k = await startReportsKernel({ now: '2026-03-02T08:30:00Z' });
    env = {
      SVC_DATABASE_URL: k.tk.database.url,
      SVC_DATA_DIR: k.tk.dataDir,
      SVC_BASE_URL: k.tk.url,
      SVC_LICENSE: 'creator',
      SVC_PLUGINS: 'tracking,reports',
      SVC_TIMEZONE: 'UTC',
      SVC_SMTP_URL: k.smtp.url,
      SVC_DNS_SERVERS: k.dns.server,
    };
  }, 120_000);
  afterAll(() => k?.close());

  it('is taken over by another node after its lease, and each recipient gets exactly one mail', async () => {
    const recipients = addresses(12);
    const id = await createReport(k, { name: 'Crash', frequency: 'daily', sendTime: '09:00', recipients });
    await evaluateAt(k, '2026-03-02T09:00:00Z');

    // The first node mails three recipients; the server hangs on the fourth mail and the node is killed there.
    const stalled = k.smtp.stallAfter(3);
    const first = startScript(SVC_BIN, ['cron', 'run', '--now', '2026-03-02T09:05:00Z'], { env });
    const held = await within(stalled, 60_000, 'the first node to send its fourth mail');
    first.child.kill('SIGKILL');
    expect((await within(first.done, 10_000, 'the killed node to exit')).code).toBeNull();
    expect(k.smtp.received).toHaveLength(3);
    expect((await logs(k)).find((l) => l.report_id === id)?.status).toBe('processing');

    // Past the scheduler's lease on the event (15 minutes), another node retries it and takes the batch over.
    const second = await runScript(SVC_BIN, ['cron', 'run', '--now', '2026-03-02T09:21:00Z'], { env });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);

    const mailed = k.smtp.received.map((m) => m.to);
    expect(mailed.flat().sort()).toEqual([...recipients].sort());
    expect(mailed.every((to) => to.length === 1)).toBe(true);
    const ids = k.smtp.received.map((m) => messageIdOf(m.raw));
    expect(new Set(ids).size).toBe(recipients.length);
    // The mail cut off in flight went out again under the same Message-ID.
    const resent = k.smtp.received.find((m) => held.includes(`To: ${m.to[0]}`));
    expect(messageIdOf(resent!.raw)).toBe(messageIdOf(held));

    const [queue] = (await logs(k)).filter((l) => l.report_id === id);
    expect(queue).toMatchObject({ status: 'sending_successful', message: 'Sent to all 12 recipients.' });
    expect(queue!.batches.map((b) => [b.batch_id, b.status])).toEqual([
      [1, 'sending_successful'],
      [2, 'sending_successful'],
    ]);
    expect(queue!.batches[0]!.message).toBe(`Sent to 10 of 10: ${recipients.slice(0, 10).join(', ')}.`);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toEqual([]);
  }, 120_000);
});
