import { createHash, randomUUID } from 'node:crypto';
import schedule, { type Job } from 'node-schedule';
import type { SvcActions } from '../../hooks';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { insertIfAbsent } from '../db/sql';
import type { ActionName, HookRegistry } from '../hooks/registry';
import type { SvcLogger } from '../logger';
import { RECURRING, type RecurringHook, lastSlot } from './recurring';

export interface SingleEvent {
  id: number;
  hook: string;
  args: unknown[];
  runAt: number;
  attempts: number;
}

interface EventRow {
  ID: number;
  hook: string;
  args: string;
  run_at: number;
  attempts: number;
}

/** How long a claimed event stays with its node before another may retry it. */
const LEASE_SECONDS = 15 * 60;
/** An event whose runs never finish (its node died each time) is dropped after this many claims. */
const MAX_CLAIMS = 3;

export const argsHash = (args: readonly unknown[]) => createHash('sha256').update(JSON.stringify(args)).digest('hex');

/**
 * WordPress-style cron on a shared database. Single events live in
 * `svc_scheduled_events`, unique on (hook, args) so a repeat is a no-op, and are
 * claimed with a conditional UPDATE so exactly one node runs each. Recurring
 * hooks fire on node-schedule; each slot is claimed in `svc_cron_runs`.
 * Events that fell due while every node was down run at the next start.
 */
export class Scheduler {
  readonly nodeId = randomUUID();
  private jobs: Job[] = [];
  private poller: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly hooks: HookRegistry,
    private readonly clock: Clock,
    private readonly logger: SvcLogger,
    private readonly timezone: string,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('scheduled_events'));
  }

  /** Schedules `hook(...args)` at unix time `runAt`; false when the same event is already pending. */
  async scheduleSingle<K extends ActionName>(runAt: number, hook: K, args: SvcActions[K]): Promise<boolean> {
    return insertIfAbsent(this.db, this.db.table('scheduled_events'), {
      hook,
      args: JSON.stringify(args),
      args_hash: argsHash(args),
      run_at: Math.floor(runAt),
      attempts: 0,
      created: this.clock.unix(),
    });
  }

  /** The unix time the event is due, or null when it is not pending. */
  async nextScheduled<K extends ActionName>(hook: K, args: SvcActions[K]): Promise<number | null> {
    const [row] = await this.db.select<{ run_at: number }>(`SELECT run_at FROM ${this.t} WHERE hook = ? AND args_hash = ?`, [
      hook,
      argsHash(args),
    ]);
    return row ? Number(row.run_at) : null;
  }

  async unschedule<K extends ActionName>(hook: K, args: SvcActions[K]): Promise<boolean> {
    return (await this.db.execute(`DELETE FROM ${this.t} WHERE hook = ? AND args_hash = ?`, [hook, argsHash(args)])) > 0;
  }

  async pending(hook?: ActionName): Promise<SingleEvent[]> {
    const rows = hook
      ? await this.db.select<EventRow>(`SELECT * FROM ${this.t} WHERE hook = ? ORDER BY run_at, ID`, [hook])
      : await this.db.select<EventRow>(`SELECT * FROM ${this.t} ORDER BY run_at, ID`);
    return rows.map((r) => ({
      id: Number(r.ID),
      hook: r.hook,
      args: JSON.parse(r.args) as unknown[],
      runAt: Number(r.run_at),
      attempts: Number(r.attempts),
    }));
  }

  /** Runs every single event due at `now` (only those of `hook` when given) that this node manages to claim. */
  async runDue(now = this.clock.unix(), hook?: ActionName): Promise<{ ran: number; dropped: number }> {
    const due = await this.db.select<EventRow>(
      `SELECT * FROM ${this.t} WHERE run_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)${hook ? ' AND hook = ?' : ''} ORDER BY run_at, ID LIMIT 100`,
      hook ? [now, now, hook] : [now, now],
    );
    let ran = 0;
    let dropped = 0;
    for (const row of due) {
      if (this.stopped) break;
      if (!(await this.claim(row, now))) continue;
      if (Number(row.attempts) >= MAX_CLAIMS) {
        this.logger.error({ hook: row.hook, event: row.ID }, `scheduled event ${row.hook} dropped after ${MAX_CLAIMS} unfinished runs`);
        await this.db.execute(`DELETE FROM ${this.t} WHERE ID = ?`, [row.ID]);
        dropped++;
        continue;
      }
      // Handler errors are logged and skipped by the hook policy; the event counts as run.
      await this.hooks.doAction(row.hook as ActionName, ...(JSON.parse(row.args) as SvcActions[ActionName]));
      await this.db.execute(`DELETE FROM ${this.t} WHERE ID = ? AND claimed_by = ?`, [row.ID, this.nodeId]);
      ran++;
    }
    return { ran, dropped };
  }

  /**
   * Fires a recurring hook for the slot containing `at`, unless another node
   * (or an earlier run) already claimed that slot. True when it ran here.
   */
  async runRecurring(hook: RecurringHook, at: Date = this.clock.now(), force = false): Promise<boolean> {
    const slot = lastSlot(hook, at, this.timezone);
    const claimed = force
      ? true
      : await insertIfAbsent(this.db, this.db.table('cron_runs'), {
          hook,
          slot,
          node: this.nodeId,
          started: this.clock.unix(),
        });
    if (!claimed) return false;
    this.logger.info({ hook, slot }, `running ${hook}`);
    await this.hooks.doAction(hook);
    if (!force) {
      await this.db.execute(`UPDATE ${this.db.quote(this.db.table('cron_runs'))} SET finished = ? WHERE hook = ? AND slot = ?`, [
        this.clock.unix(),
        hook,
        slot,
      ]);
    }
    return true;
  }

  /** Starts the timers: recurring hooks, a poll for single events, and a catch-up of missed work. */
  start(pollSeconds = 30): void {
    this.stopped = false;
    for (const [hook, rule] of Object.entries(RECURRING) as Array<[RecurringHook, string]>) {
      this.jobs.push(schedule.scheduleJob({ rule, tz: this.timezone }, () => this.track(this.runRecurring(hook))));
      this.track(this.runRecurring(hook));
    }
    const tick = () => this.track(this.runDue());
    tick();
    this.poller = setInterval(tick, pollSeconds * 1000);
    this.poller.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs) job.cancel();
    this.jobs = [];
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    await Promise.allSettled([...this.inFlight]);
  }

  private track(work: Promise<unknown>): void {
    const guarded = work
      .catch((err: unknown) => this.logger.error({ err }, 'scheduler run failed'))
      .finally(() => this.inFlight.delete(guarded));
    this.inFlight.add(guarded);
  }

  private async claim(row: EventRow, now: number): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE ${this.t} SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1 WHERE ID = ? AND (claimed_until IS NULL OR claimed_until < ?)`,
      [this.nodeId, now + LEASE_SECONDS, row.ID, now],
    );
    return changed === 1;
  }
}
