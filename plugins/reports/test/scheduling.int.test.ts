import { createTestKernel } from '../../../test/helpers/test-kernel';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport, evaluateAt, logRows, queuesOf, reportObject } from './support/helpers';

const unix = (iso: string) => Date.parse(iso) / 1000;

describe('scheduling in the site timezone (Pacific/Auckland, UTC+13)', () => {
  let k: ReportsTestKernel;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    // Saturday 2026-02-21 00:00 in Auckland: Friday's 09:00 window is still open, but that day came before the reports.
    k = await startReportsKernel({ timezone: 'Pacific/Auckland', now: '2026-02-20T11:00:00Z' });
    ids.daily = await createReport(k, { name: 'Daily', frequency: 'daily', sendTime: '09:00' });
    ids.weekly = await createReport(k, { name: 'Weekly', frequency: 'weekly', dayOfWeek: 'monday', sendTime: '09:00' });
    ids.lastSunday = await createReport(k, { name: 'Last Sunday', frequency: 'monthly', dayOfWeek: 'sunday', weekOfMonth: -1, sendTime: '09:00' });
    ids.firstMonday = await createReport(k, { name: 'First Monday', frequency: 'monthly', dayOfWeek: 'monday', weekOfMonth: 1, sendTime: '09:00' });
    ids.disabled = await createReport(k, { name: 'Disabled', frequency: 'daily', enabled: false });
    ids.manual = await createReport(k, { name: 'Manual', frequency: 'daily', scheduled: false });
  });
  afterAll(() => k.close());

  it('sends nothing for an occurrence from a day before the report existed', async () => {
    await evaluateAt(k, '2026-02-20T11:00:00Z');
    for (const id of Object.values(ids)) expect(await queuesOf(k, id)).toEqual([]);
  });

  it('dispatches a daily report at its local send time as one batch event 5 minutes ahead, and sets fixed_end_date', async () => {
    await evaluateAt(k, '2026-02-20T19:59:00Z');
    expect(await queuesOf(k, ids.daily!)).toEqual([]);
    await evaluateAt(k, '2026-02-20T20:00:00Z'); // Saturday 21 February, 09:00 in Auckland
    expect(await queuesOf(k, ids.daily!)).toEqual(['2026-02-21: processing']);
    const events = await k.tk.kernel.scheduler.pending('svc_send_email_batch');
    expect(events.map((e) => [e.args, e.runAt])).toEqual([[[ids.daily, '2026-02-21', 1], unix('2026-02-20T20:05:00Z')]]);
    expect((await reportObject(k, ids.daily!)).fixedEndDate).toBe('2026-02-20');
    expect((await logRows(k, ids.daily!))).toEqual([{ queue_id: '2026-02-21', batch_id: null, status: 'processing' }]);
  });

  it('does not dispatch the same occurrence twice while its window is open', async () => {
    await evaluateAt(k, '2026-02-20T21:00:00Z');
    await evaluateAt(k, '2026-02-21T19:00:00Z');
    expect(await queuesOf(k, ids.daily!)).toEqual(['2026-02-21: processing']);
    expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toHaveLength(1);
  });

  it('matches the last Sunday of the month on the Auckland calendar (a Saturday in UTC)', async () => {
    await evaluateAt(k, '2026-02-21T20:00:00Z'); // Sunday 22 February 09:00 in Auckland
    expect(await queuesOf(k, ids.lastSunday!)).toEqual(['2026-02-22: processing']);
    expect(await queuesOf(k, ids.daily!)).toEqual(['2026-02-21: processing', '2026-02-22: processing']);
    expect(await queuesOf(k, ids.weekly!)).toEqual([]);
  });

  it('matches the weekly Monday on the Auckland calendar (a Sunday in UTC)', async () => {
    await evaluateAt(k, '2026-02-22T19:00:00Z');
    expect(await queuesOf(k, ids.weekly!)).toEqual([]);
    await evaluateAt(k, '2026-02-22T20:00:00Z');
    expect(await queuesOf(k, ids.weekly!)).toEqual(['2026-02-23: processing']);
    expect((await reportObject(k, ids.weekly!)).fixedEndDate).toBe('2026-02-22');
    await evaluateAt(k, '2026-02-23T20:00:00Z'); // Tuesday: nothing new for the weekly one
    expect(await queuesOf(k, ids.weekly!)).toEqual(['2026-02-23: processing']);
  });

  it('matches the first Monday of March, logs cron_miss for a window nobody evaluated, and leaves disabled and manual reports alone', async () => {
    // Nothing runs from 24 February until Monday 2 March 09:00 in Auckland (1 March 20:00 UTC).
    await evaluateAt(k, '2026-03-01T20:00:00Z');
    expect(await queuesOf(k, ids.firstMonday!)).toEqual(['2026-03-02: processing']);
    expect(await queuesOf(k, ids.weekly!)).toEqual(['2026-02-23: processing', '2026-03-02: processing']);
    expect(await queuesOf(k, ids.daily!)).toEqual([
      '2026-02-21: processing',
      '2026-02-22: processing',
      '2026-02-23: processing',
      '2026-02-24: processing',
      '2026-03-01: cron_miss',
      '2026-03-02: processing',
    ]);
    expect(await queuesOf(k, ids.lastSunday!)).toEqual(['2026-02-22: processing']);
    expect(await queuesOf(k, ids.disabled!)).toEqual([]);
    expect(await queuesOf(k, ids.manual!)).toEqual([]);
    const [miss] = (await logRows(k, ids.daily!)).filter((r) => r.status === 'cron_miss');
    expect(miss).toEqual({ queue_id: '2026-03-01', batch_id: null, status: 'cron_miss' });
  });

  it('records a miss once, and not for a report edited after the missed time', async () => {
    await evaluateAt(k, '2026-03-01T21:00:00Z');
    expect((await queuesOf(k, ids.daily!)).filter((q) => q.endsWith('cron_miss'))).toHaveLength(1);
    const edited = await createReport(k, { name: 'Edited late', frequency: 'weekly', dayOfWeek: 'sunday' }); // created Mon 2 March
    await evaluateAt(k, '2026-03-02T21:00:00Z');
    expect(await queuesOf(k, edited)).toEqual([]);
  });

  it('shows each report state as lastSendStatus', async () => {
    expect((await reportObject(k, ids.disabled!)).lastSendStatus).toBe('concept');
    expect((await reportObject(k, ids.manual!)).lastSendStatus).toBe('ready_to_share');
    expect((await reportObject(k, ids.firstMonday!)).lastSendStatus).toBe('processing');
    const fresh = await createReport(k, { name: 'Fresh' });
    expect((await reportObject(k, fresh)).lastSendStatus).toBe('scheduled');
  });
});

describe('the 24-hour send window (§1 rule 2)', () => {
  let k: ReportsTestKernel;
  beforeAll(async () => {
    k = await startReportsKernel({ now: '2026-03-02T08:00:00Z' }); // Monday, UTC
  });
  afterAll(() => k.close());

  it("sends today's occurrence to a report created after today's send time", async () => {
    k.clock.set('2026-03-02T10:30:00Z');
    const daily = await createReport(k, { name: 'Late daily', frequency: 'daily', sendTime: '09:00' });
    const weekly = await createReport(k, { name: 'Late weekly', frequency: 'weekly', dayOfWeek: 'monday', sendTime: '09:00' });
    await evaluateAt(k, '2026-03-02T11:00:00Z');
    expect(await queuesOf(k, daily)).toEqual(['2026-03-02: processing']);
    expect(await queuesOf(k, weekly)).toEqual(['2026-03-02: processing']);
    k.clock.set('2026-03-02T12:00:00Z');
    expect((await k.action('update', { report: { id: daily, name: 'Late daily, renamed', recipients: ['owner@example.com', 'second@example.com'] } })).status).toBe(200);
    await evaluateAt(k, '2026-03-02T13:00:00Z');
    await evaluateAt(k, '2026-03-03T08:00:00Z');
    expect(await queuesOf(k, daily)).toEqual(['2026-03-02: processing']);
    expect((await k.tk.kernel.scheduler.pending('svc_send_email_batch')).filter((e) => e.args[0] === daily)).toHaveLength(1);
  });

  it('sends a report switched on after its send time for that day, once', async () => {
    k.clock.set('2026-03-03T07:00:00Z');
    const id = await createReport(k, { name: 'Switched on late', frequency: 'daily', sendTime: '09:00', enabled: false });
    await evaluateAt(k, '2026-03-03T09:00:00Z');
    expect(await queuesOf(k, id)).toEqual([]);
    k.clock.set('2026-03-03T15:20:00Z');
    expect((await k.action('update', { report: { id, enabled: true } })).status).toBe(200);
    await evaluateAt(k, '2026-03-03T16:00:00Z');
    await evaluateAt(k, '2026-03-03T17:00:00Z');
    expect(await queuesOf(k, id)).toEqual(['2026-03-03: processing']);
  });

  it("does not send the day before's occurrence to a report created before today's send time", async () => {
    k.clock.set('2026-03-04T08:10:00Z');
    const id = await createReport(k, { name: 'Early', frequency: 'daily', sendTime: '09:00' });
    await evaluateAt(k, '2026-03-04T08:10:00Z'); // 3 March 09:00 is still inside its window, but the report did not exist that day
    expect(await queuesOf(k, id)).toEqual([]);
    await evaluateAt(k, '2026-03-04T09:00:00Z');
    expect(await queuesOf(k, id)).toEqual(['2026-03-04: processing']);
  });

  it('logs cron_miss when nothing ran in the window of an occurrence the report owed', async () => {
    k.clock.set('2026-03-05T10:00:00Z');
    const id = await createReport(k, { name: 'Missed', frequency: 'daily', sendTime: '09:00' });
    await evaluateAt(k, '2026-03-06T10:00:00Z');
    expect(await queuesOf(k, id)).toEqual(['2026-03-05: cron_miss', '2026-03-06: processing']);
  });
});

describe('the per-report guard across app nodes', () => {
  let node1: ReportsTestKernel;
  let node2: ReportsTestKernel;
  beforeAll(async () => {
    node1 = await startReportsKernel({ now: '2026-03-02T08:30:00Z' });
    node2 = await startReportsKernel({ now: '2026-03-02T08:30:00Z', database: node1.tk.database, smtp: node1.smtp, dns: node1.dns });
  });
  afterAll(async () => {
    await node2.close();
    await node1.close();
  });

  it('sends once when two nodes evaluate at the same moment', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await createReport(node1, { name: `Daily ${i}`, frequency: 'daily', sendTime: '09:00' }));
    await Promise.all([evaluateAt(node1, '2026-03-02T09:00:00Z'), evaluateAt(node2, '2026-03-02T09:00:00Z')]);
    await Promise.all([evaluateAt(node2, '2026-03-02T10:00:00Z'), evaluateAt(node1, '2026-03-02T10:00:00Z')]);
    for (const id of ids) expect(await logRows(node1, id)).toEqual([{ queue_id: '2026-03-02', batch_id: null, status: 'processing' }]);
    const events = await node1.tk.kernel.scheduler.pending('svc_send_email_batch');
    expect(events.map((e) => e.args[0]).sort()).toEqual([...ids].sort());
  });

  it('skips a report while another run holds its guard, and sends once the guard has expired', async () => {
    const id = await createReport(node1, { name: 'Guarded', frequency: 'daily', sendTime: '11:00' });
    const db = node1.tk.kernel.db;
    await db.execute(`INSERT INTO ${db.quote(db.table('report_guards'))} (report_id, expires) VALUES (?, ?)`, [id, unix('2026-03-02T11:30:00Z')]);
    await evaluateAt(node2, '2026-03-02T11:00:00Z');
    expect(await logRows(node1, id)).toEqual([]);
    await evaluateAt(node2, '2026-03-02T12:00:00Z');
    expect(await logRows(node1, id)).toEqual([{ queue_id: '2026-03-02', batch_id: null, status: 'processing' }]);
  });
});

describe('the hourly evaluation without the reports table', () => {
  it('exits early and quietly', async () => {
    const k = await startReportsKernel();
    await createReport(k, { frequency: 'daily' });
    await k.tk.kernel.db.sequelize.getQueryInterface().dropTable(k.tk.kernel.db.table('reports'));
    const node = await createTestKernel({ plugins: ['tracking', 'reports'], database: k.tk.database, env: { SVC_LICENSE: 'creator' } });
    try {
      await node.kernel.scheduler.runRecurring('svc_every_hour', node.clock.now(), true);
      expect(node.logs.filter((l) => l.level === 50)).toEqual([]);
    } finally {
      await node.close();
      await k.close();
    }
  });
});
