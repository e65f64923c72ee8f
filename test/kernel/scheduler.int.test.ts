import { ManualClock } from '../../core/clock';
import { definePlugin } from '../../core/plugins/manifest';
import { lastSlot } from '../../core/scheduler/recurring';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { eventually } from '../helpers/wait';

const T0 = Date.parse('2024-06-03T08:00:00Z');

/** Records every batch event it receives; throws for report 13. */
function recorder(runs: Array<{ report: number; queue: string; batch: number | null; at: number }>) {
  return definePlugin({
    name: 'recorder',
    tier: 'free',
    register(ctx) {
      ctx.hooks.addAction('svc_send_email_batch', (report, queue, batch) => {
        if (report === 13) throw new Error('unlucky report');
        runs.push({ report, queue, batch, at: ctx.clock.unix() });
      });
    },
  });
}


describe('single events', () => {
  let tk: TestKernel;
  const clock = new ManualClock(T0);
  const runs: Parameters<typeof recorder>[0] = [];
  beforeAll(async () => {
    tk = await createTestKernel({ clock, inline: [recorder(runs)] });
  });
  afterAll(() => tk?.close());
  beforeEach(() => void runs.splice(0));

  it('stores an event once: a repeat of the same hook and arguments is a no-op', async () => {
    const { scheduler } = tk.kernel;
    const at = clock.unix() + 300;
    expect(await scheduler.scheduleSingle(at, 'svc_send_email_batch', [1, '2024-06-03', 1])).toBe(true);
    expect(await scheduler.scheduleSingle(at + 60, 'svc_send_email_batch', [1, '2024-06-03', 1])).toBe(false);
    expect(await scheduler.scheduleSingle(at, 'svc_send_email_batch', [1, '2024-06-03', 2])).toBe(true);
    expect(await scheduler.scheduleSingle(at, 'svc_send_email_batch', [1, '2024-06-03', null])).toBe(true);
    expect(await scheduler.nextScheduled('svc_send_email_batch', [1, '2024-06-03', 1])).toBe(at);
    expect(await scheduler.nextScheduled('svc_send_email_batch', [9, 'x', 1])).toBeNull();
    expect((await scheduler.pending('svc_send_email_batch')).map((e) => e.args)).toEqual([
      [1, '2024-06-03', 1],
      [1, '2024-06-03', 2],
      [1, '2024-06-03', null],
    ]);
    expect(await scheduler.unschedule('svc_send_email_batch', [1, '2024-06-03', 2])).toBe(true);
    expect(await scheduler.unschedule('svc_send_email_batch', [1, '2024-06-03', 2])).toBe(false);
  });

  it('runs an event when it is due, once, with its arguments, and forgets it', async () => {
    const { scheduler } = tk.kernel;
    expect(await scheduler.runDue()).toEqual({ ran: 0, dropped: 0 });
    clock.advance(299);
    expect((await scheduler.runDue()).ran).toBe(0);
    clock.advance(1);
    expect(await scheduler.runDue()).toEqual({ ran: 2, dropped: 0 });
    expect(runs.map((r) => [r.report, r.queue, r.batch])).toEqual([
      [1, '2024-06-03', 1],
      [1, '2024-06-03', null],
    ]);
    expect(await scheduler.pending()).toEqual([]);
    expect((await scheduler.runDue()).ran).toBe(0);
    expect(runs).toHaveLength(2);
    expect(await scheduler.scheduleSingle(clock.unix(), 'svc_send_email_batch', [1, '2024-06-03', 1])).toBe(true);
  });

  it('counts an event whose handler throws as run, and logs the failure', async () => {
    const { scheduler } = tk.kernel;
    await scheduler.runDue();
    await scheduler.scheduleSingle(clock.unix(), 'svc_send_email_batch', [13, 'q', 1]);
    expect((await scheduler.runDue()).ran).toBe(1);
    expect(await scheduler.pending()).toEqual([]);
    expect(tk.logs.some((l) => l.plugin === 'recorder' && l.hook === 'svc_send_email_batch' && l.level === 50)).toBe(true);
  });

  it('retries an event whose node died while running it, and drops it after three unfinished claims', async () => {
    const { scheduler, db } = tk.kernel;
    const table = db.quote(db.table('scheduled_events'));
    await scheduler.scheduleSingle(clock.unix(), 'svc_send_email_batch', [20, 'q', 1]);
    await scheduler.scheduleSingle(clock.unix(), 'svc_send_email_batch', [21, 'q', 1]);
    await db.execute(`UPDATE ${table} SET claimed_by = ?, claimed_until = ?, attempts = 1 WHERE args LIKE ?`, ['dead', clock.unix() + 600, '[20,%']);
    await db.execute(`UPDATE ${table} SET claimed_by = ?, claimed_until = ?, attempts = 3 WHERE args LIKE ?`, ['dead', clock.unix() - 1, '[21,%']);
    expect(await scheduler.runDue()).toEqual({ ran: 0, dropped: 1 });
    expect(runs).toEqual([]);
    clock.advance(601);
    expect(await scheduler.runDue()).toEqual({ ran: 1, dropped: 0 });
    expect(runs.map((r) => r.report)).toEqual([20]);
  });
});

describe('recurring hooks', () => {
  it('claims each slot once across app nodes, in the site timezone', async () => {
    const database = await createTestDatabase();
    const clock = new ManualClock('2024-06-03T21:30:00Z');
    const daily: string[] = [];
    const node = (name: string) =>
      createTestKernel({
        database,
        clock,
        env: { SVC_TIMEZONE: 'Europe/Berlin' },
        inline: [definePlugin({ name: 'daily', tier: 'free', register: (ctx) => ctx.hooks.addAction('svc_daily', () => void daily.push(name)) })],
      });
    const a = await node('a');
    const b = await node('b');
    try {
      expect(await a.kernel.scheduler.runRecurring('svc_daily', clock.now())).toBe(true);
      expect(await b.kernel.scheduler.runRecurring('svc_daily', clock.now())).toBe(false);
      // 21:30 UTC is 23:30 in Berlin; 22:30 UTC is already the next day there.
      clock.advance(3600);
      expect(await b.kernel.scheduler.runRecurring('svc_daily', clock.now())).toBe(true);
      expect(await a.kernel.scheduler.runRecurring('svc_daily', clock.now())).toBe(false);
      expect(daily).toEqual(['a', 'b']);
      expect(lastSlot('svc_daily', new Date('2024-06-03T22:30:00Z'), 'Europe/Berlin')).toBe(Date.parse('2024-06-03T22:00:00Z') / 1000);
      expect(lastSlot('svc_weekly', new Date('2024-06-05T12:00:00Z'), 'UTC')).toBe(Date.parse('2024-06-03T00:00:00Z') / 1000);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });
});

describe('a restart', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it('runs an event that fell due while the service was stopped, and the missed recurring hooks', async () => {
    const clock = new ManualClock(T0);
    const runs: Parameters<typeof recorder>[0] = [];
    const first = await createTestKernel({ database, clock, inline: [recorder(runs)] });
    await first.kernel.scheduler.scheduleSingle(clock.unix() + 300, 'svc_send_email_batch', [7, '2024-06-03', 1]);
    await first.close();

    clock.advance(3 * 3600);
    const hourly: number[] = [];
    const watcher = definePlugin({ name: 'watcher', tier: 'free', register: (ctx) => ctx.hooks.addAction('svc_every_hour', () => void hourly.push(ctx.clock.unix())) });
    const second = await createTestKernel({ database, clock, inline: [recorder(runs), watcher], scheduler: true });
    try {
      await eventually(() => runs.length === 1 && hourly.length === 1);
      expect(runs[0]).toMatchObject({ report: 7, queue: '2024-06-03', batch: 1, at: clock.unix() });
      expect(await second.kernel.scheduler.pending()).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
