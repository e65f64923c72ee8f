import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport, evaluateAt, logRows, logs, queuesOf, reportObject, runDueAt } from './support/helpers';

const unix = (iso: string) => Date.parse(iso) / 1000;
const addresses = (n: number, domain = 'example.com') => Array.from({ length: n }, (_, i) => `reader${i + 1}@${domain}`);

describe('delivery of report queues', () => {
  let k: ReportsTestKernel;
  beforeAll(async () => {
    k = await startReportsKernel({ now: '2026-03-02T08:30:00Z' });
  });
  afterAll(() => k.close());
  beforeEach(() => k.smtp.clear());

  it('sends 25 recipients in 3 batches 5 minutes apart, one mail per recipient', async () => {
    const recipients = addresses(25);
    const id = await createReport(k, { name: 'Weekly digest', frequency: 'weekly', dayOfWeek: 'monday', sendTime: '09:00', recipients });
    await evaluateAt(k, '2026-03-02T09:00:00Z');
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toMatchObject([{ args: [id, '2026-03-02', 1], runAt: unix('2026-03-02T09:05:00Z') }]);

    expect(await runDueAt(k, '2026-03-02T09:04:59Z')).toBe(0);
    expect(await runDueAt(k, '2026-03-02T09:05:00Z')).toBe(1);
    expect(k.smtp.received).toHaveLength(10);
    expect((await reportObject(k, id)).lastSendStatus).toBe('processing');
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toMatchObject([{ args: [id, '2026-03-02', 2], runAt: unix('2026-03-02T09:10:00Z') }]);

    expect(await runDueAt(k, '2026-03-02T09:10:00Z')).toBe(1);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toMatchObject([{ args: [id, '2026-03-02', 3], runAt: unix('2026-03-02T09:15:00Z') }]);
    expect(await runDueAt(k, '2026-03-02T09:15:00Z')).toBe(1);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toEqual([]);

    expect(k.smtp.received).toHaveLength(25);
    expect(k.smtp.received.map((m) => m.to)).toEqual(recipients.map((r) => [r]));
    const [queue] = (await logs(k)).filter((l) => l.report_id === id);
    expect(queue).toMatchObject({ queue_id: '2026-03-02', date: '2026-03-02', test: false, status: 'sending_successful', message: 'Sent to all 25 recipients.' });
    expect(queue!.batches.map((b: { batch_id: number; status: string; time: number }) => [b.batch_id, b.status, b.time])).toEqual([
      [1, 'sending_successful', unix('2026-03-02T09:05:00Z')],
      [2, 'sending_successful', unix('2026-03-02T09:10:00Z')],
      [3, 'sending_successful', unix('2026-03-02T09:15:00Z')],
    ]);
    expect(await reportObject(k, id)).toMatchObject({ lastSendStatus: 'sending_successful', lastSendMessage: 'Sent to all 25 recipients.' });
  });

  it('ignores a repeated batch, also when both copies run at once', async () => {
    const id = await createReport(k, { name: 'Repeat', frequency: 'daily', sendTime: '10:00', recipients: addresses(3) });
    await evaluateAt(k, '2026-03-02T10:00:00Z');
    k.clock.set('2026-03-02T10:05:00Z');
    await Promise.all([
      k.tk.kernel.hooks.doAction('svc_send_email_batch', id, '2026-03-02', 1),
      k.tk.kernel.hooks.doAction('svc_send_email_batch', id, '2026-03-02', 1),
    ]);
    await k.tk.kernel.hooks.doAction('svc_send_email_batch', id, '2026-03-02', 1);
    expect(await runDueAt(k, '2026-03-02T10:05:00Z')).toBe(1);
    expect(k.smtp.received).toHaveLength(3);
    expect(await logRows(k, id)).toEqual([
      { queue_id: '2026-03-02', batch_id: null, status: 'sending_successful' },
      { queue_id: '2026-03-02', batch_id: 1, status: 'sending_successful' },
    ]);
    // Rescheduling a handled batch is a no-op too.
    await k.tk.kernel.hooks.doAction('svc_send_email_batch', id, '2026-03-02', 2);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toEqual([]);
  });

  it('skips and logs a recipient whose domain has no MX or A record: partly_sent', async () => {
    const id = await createReport(k, { name: 'Partly', recipients: ['one@example.com', 'two@a-only.test', 'ghost@nowhere.invalid'] });
    const res = await k.action('send-test-report', { id });
    expect(res.status).toBe(200);
    const queue = res.body.data.queue;
    expect(queue.status).toBe('partly_sent');
    expect(queue.message).toBe('Sent to 2 of 3 recipients; 1 failed.');
    expect(queue.batches[0].status).toBe('partly_sent');
    expect(queue.batches[0].message).toContain('ghost@nowhere.invalid (its domain has no MX, A or AAAA record; skipped)');
    expect(k.smtp.received.map((m) => m.to[0])).toEqual(['one@example.com', 'two@a-only.test']);
  });

  it('ends as sending_failed when every recipient fails', async () => {
    const id = await createReport(k, { name: 'Failed', recipients: ['a@nowhere.invalid', 'b@missing.test'] });
    const res = await k.action('send-test-report', { id });
    expect(res.body.data.queue).toMatchObject({ status: 'sending_failed', message: 'No e-mail could be delivered (2 of 2 failed).' });
    expect(k.smtp.received).toHaveLength(0);
  });

  it('logs a recipient the mail server refuses as a failure', async () => {
    k.smtp.refuse.add('full@example.com');
    try {
      const id = await createReport(k, { name: 'Refused', recipients: ['ok@example.com', 'full@example.com'] });
      const queue = (await k.action('send-test-report', { id })).body.data.queue;
      expect(queue.status).toBe('partly_sent');
      expect(queue.batches[0].message).toMatch(/full@example\.com \(.+\)/);
    } finally {
      k.smtp.refuse.clear();
    }
  });

  it('sends a test at once in the parent/child structure, without scheduler events or schedule changes', async () => {
    k.clock.set('2026-03-02T11:00:00Z');
    const id = await createReport(k, { name: 'Test structure', recipients: ['owner@example.com'] });
    const before = await reportObject(k, id);
    const res = await k.action('send-test-report', { id, recipients: addresses(12) });
    const queue = res.body.data.queue;
    expect(queue.queue_id).toBe(`test-2026-03-02-${unix('2026-03-02T11:00:00Z')}`);
    expect(queue).toMatchObject({ test: true, date: '2026-03-02', status: 'sending_successful' });
    expect(queue.batches.map((b: { batch_id: number }) => b.batch_id)).toEqual([1, 2]);
    expect(await logRows(k, id)).toEqual([
      { queue_id: queue.queue_id, batch_id: null, status: 'sending_successful' },
      { queue_id: queue.queue_id, batch_id: 1, status: 'sending_successful' },
      { queue_id: queue.queue_id, batch_id: 2, status: 'sending_successful' },
    ]);
    expect(k.smtp.received).toHaveLength(12);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toEqual([]);
    expect((await reportObject(k, id)).fixedEndDate).toBe(before.fixedEndDate);
    // A second test in the same second has the same queue id.
    expect((await k.action('send-test-report', { id })).status).toBe(409);
  });

  it('sends the first batch now and schedules the rest with send-report-now; a second one the same day conflicts', async () => {
    k.clock.set('2026-03-02T12:00:00Z');
    const id = await createReport(k, { name: 'Now', frequency: 'daily', sendTime: '18:00', recipients: addresses(12) });
    const res = await k.action('send-report-now', { id });
    expect(res.status).toBe(200);
    expect(res.body.data.queue).toMatchObject({ queue_id: '2026-03-02', status: 'processing', batches: [{ batch_id: 1, status: 'sending_successful' }] });
    expect(k.smtp.received).toHaveLength(10);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toMatchObject([{ args: [id, '2026-03-02', 2], runAt: unix('2026-03-02T12:05:00Z') }]);
    expect((await reportObject(k, id)).fixedEndDate).toBe('2026-03-01');
    const again = await k.action('send-report-now', { id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('svc_report_queue_exists');
    await runDueAt(k, '2026-03-02T12:05:00Z');
    expect(k.smtp.received).toHaveLength(12);
    await evaluateAt(k, '2026-03-02T18:00:00Z');
    expect(await queuesOf(k, id)).toEqual(['2026-03-02: sending_successful']);
  });

  it('sends HTML in UTF-8 with a plain-text part', async () => {
    const id = await createReport(k, { name: 'Überblick – März', recipients: ['owner@example.com'] });
    await k.action('send-test-report', { id });
    const [mail] = k.smtp.received;
    expect(mail!.parsed.subject).toMatch(/^Überblick – März · 127\.0\.0\.1:\d+ · 23 Feb 2026 – 1 Mar 2026$/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html; charset=utf-8/i);
    expect(mail!.raw).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
    expect(mail!.parsed.html).toContain('Überblick – März');
    expect(mail!.parsed.text).toContain('MOST VISITED PAGES');
    expect(mail!.parsed.from?.address).toMatch(/^svc@/);
  });
  it('takes over a batch whose 10-minute lease ran out, and only then', async () => {
    k.clock.set('2026-03-02T13:00:00Z');
    const id = await createReport(k, { name: 'Interrupted', frequency: 'daily', sendTime: '13:00', recipients: addresses(2) });
    await evaluateAt(k, '2026-03-02T13:00:00Z');
    // A node claimed batch 1 at 13:05 and died before it finished.
    const db = k.tk.kernel.db;
    await db.execute(
      `INSERT INTO ${db.quote(db.table('report_logs'))} (report_id, queue_id, batch_id, status, message, time, date) VALUES (?, '2026-03-02', 1, 'processing', 'Sending this batch.', ?, '2026-03-02')`,
      [id, unix('2026-03-02T13:05:00Z')],
    );
    // Reports made earlier today after their send time went out at 13:00 as well; count this one's mails only.
    const mails = () => k.smtp.received.filter((m) => m.parsed.subject?.startsWith('Interrupted')).length;
    k.clock.set('2026-03-02T13:15:00Z');
    await k.tk.kernel.hooks.doAction('svc_send_email_batch', id, '2026-03-02', 1);
    expect(mails()).toBe(0);
    k.clock.set('2026-03-02T13:15:01Z');
    await k.tk.kernel.hooks.doAction('svc_send_email_batch', id, '2026-03-02', 1);
    expect(mails()).toBe(2);
    expect(await queuesOf(k, id)).toEqual(['2026-03-02: sending_successful']);
    expect((await k.tk.kernel.scheduler.pending('svc_send_email_batch')).filter((e) => e.args[0] === id)).toHaveLength(1);
    await runDueAt(k, '2026-03-02T13:15:01Z');
    expect((await k.tk.kernel.scheduler.pending('svc_send_email_batch')).filter((e) => e.args[0] === id)).toEqual([]);
    expect(mails()).toBe(2);
  });
});

describe('the delivery log', () => {
  let k: ReportsTestKernel;
  let id: number;
  beforeAll(async () => {
    k = await startReportsKernel({ now: '2026-01-01T12:00:00Z' });
    id = await createReport(k, { name: 'History', recipients: ['owner@example.com'] });
    for (const day of ['2026-01-01', '2026-01-20', '2026-01-25', '2026-02-01']) {
      k.clock.set(`${day}T12:00:00Z`);
      await k.action('send-test-report', { id });
    }
  });
  afterAll(() => k.close());

  it('lists the queues of the past 30 days, newest first', async () => {
    k.clock.set('2026-02-05T12:00:00Z');
    expect((await logs(k)).map((l) => l.date)).toEqual(['2026-02-01', '2026-01-25', '2026-01-20']);
    expect((await logRows(k, id)).filter((r) => r.batch_id === null)).toHaveLength(4);
  });

  it('purges entries older than the retention threshold on svc_daily', async () => {
    await k.tk.kernel.hooks.doAction('svc_daily');
    expect((await logRows(k, id)).map((r) => r.queue_id.slice(5, 15))).toEqual([
      '2026-01-20', '2026-01-20', '2026-01-25', '2026-01-25', '2026-02-01', '2026-02-01',
    ]);
  });

  it('follows svc_report_log_delete_threshold', async () => {
    k.tk.kernel.hooks.addFilter('svc_report_log_delete_threshold', () => 7, {}, 'reports-test');
    await k.tk.kernel.hooks.doAction('svc_daily');
    expect((await logRows(k, id)).map((r) => r.queue_id.slice(5, 15))).toEqual(['2026-02-01', '2026-02-01']);
  });
});
