import type { Transaction } from 'sequelize';
import type { Database } from '../../../core/db/database';
import type { SvcLogger } from '../../../core/logger';
import type { SvcStatistic } from '../../../hooks';
import { Batcher } from './batcher';
import type { InsertReturning } from './insert-returning';

/** A session row to create with the pageview (tracking.md §2.2). */
export interface NewSession {
  uid: string;
  time: number;
  first_visited_url: string;
  last_visited_url: string;
  host: string;
  referrer: string;
  goal_id: number;
  city_code: number;
  browser_id: number;
  browser_version_id: number;
  platform_id: number;
  device_id: number;
  first_time_visit: number;
}

/** What one hit writes. */
export type WritePlan =
  | {
      kind: 'create';
      /** A new session, or the id of the open one and the URL it reaches. */
      session: NewSession | { id: number; lastVisitedUrl: string };
      statistic: SvcStatistic;
      goals: number[];
    }
  | { kind: 'update'; statisticId: number; sessionId: number; seconds: number; time: number; goals: number[] };

export interface WriteResult {
  statisticId: number;
  sessionId: number;
}

const SESSION_COLUMNS = [
  'uid',
  'time',
  'last_time',
  'first_visited_url',
  'last_visited_url',
  'host',
  'referrer',
  'goal_id',
  'city_code',
  'browser_id',
  'browser_version_id',
  'platform_id',
  'device_id',
  'first_time_visit',
  'bounce',
] as const;
const STATISTIC_COLUMNS = ['page_url', 'parameters', 'fragment', 'page_id', 'page_type', 'time', 'uid', 'time_on_page', 'session_id'] as const;

const isNew = (s: NewSession | { id: number }): s is NewSession => !('id' in s);

/**
 * Writes hits in batches: every hit planned while the previous batch commits
 * goes into the next one, as a few multi-row statements in one transaction
 * (sessions, pageviews, session updates, time-on-page updates, goal joins).
 * A batch is all or nothing; each batch holds at most one hit per visitor
 * (the pipeline serialises a visitor's hits).
 */
export class HitWriter {
  private readonly batcher: Batcher<WritePlan, WriteResult>;

  constructor(
    private readonly db: Database,
    private readonly inserter: InsertReturning,
    private readonly logger: SvcLogger,
  ) {
    // SQLite has one writer: concurrent transactions would only wait for each other.
    this.batcher = new Batcher((plans) => this.writeWithRetry(plans), { concurrency: db.dialect === 'mysql' ? 2 : 1 });
  }

  write(plan: WritePlan): Promise<WriteResult> {
    return this.batcher.submit(plan);
  }

  /** Waits for every submitted write (shutdown). */
  drained(): Promise<void> {
    return this.batcher.drained();
  }

  private async writeWithRetry(plans: WritePlan[]): Promise<WriteResult[]> {
    try {
      return await this.db.transaction((t) => this.writeBatch(plans, t));
    } catch (err) {
      // A deadlock or busy database aborts the whole batch; one retry, then each hit alone.
      this.logger.warn({ err, hits: plans.length }, 'hit batch failed; retrying');
      if (plans.length === 1) return [await this.db.transaction((t) => this.writeBatch(plans, t)).then((r) => r[0]!)];
      const results: WriteResult[] = [];
      for (const plan of plans) results.push((await this.db.transaction((t) => this.writeBatch([plan], t)))[0]!);
      return results;
    }
  }

  private async writeBatch(plans: WritePlan[], t: Transaction): Promise<WriteResult[]> {
    const results: WriteResult[] = plans.map(() => ({ statisticId: 0, sessionId: 0 }));
    const creates = plans.flatMap((p, i) => (p.kind === 'create' ? [{ p, i }] : []));

    const fresh = creates.filter(({ p }) => isNew(p.session));
    if (fresh.length > 0) {
      const ids = await this.inserter.insert(
        this.db.table('sessions'),
        SESSION_COLUMNS,
        fresh.map(({ p }) => {
          const s = p.session as NewSession;
          return [s.uid, s.time, s.time, s.first_visited_url, s.last_visited_url, s.host, s.referrer, s.goal_id, s.city_code, s.browser_id, s.browser_version_id, s.platform_id, s.device_id, s.first_time_visit, 1];
        }),
        t,
      );
      fresh.forEach(({ i }, n) => (results[i]!.sessionId = ids[n]!));
    }
    for (const { p, i } of creates) if (!isNew(p.session)) results[i]!.sessionId = p.session.id;

    if (creates.length > 0) {
      const ids = await this.inserter.insert(
        this.db.table('statistics'),
        STATISTIC_COLUMNS,
        creates.map(({ p, i }) => {
          const s = p.statistic;
          s.session_id = results[i]!.sessionId;
          return [s.page_url, s.parameters, s.fragment, s.page_id, s.page_type, s.time, s.uid, s.time_on_page, s.session_id];
        }),
        t,
      );
      creates.forEach(({ p, i }, n) => {
        results[i]!.statisticId = ids[n]!;
        p.statistic.ID = ids[n]!;
      });
    }

    await this.updateSessions(plans, results, t);
    await this.addTimeOnPage(plans, results, t);
    await this.insertGoals(plans.flatMap((p, i) => p.goals.map((g) => [results[i]!.statisticId, g] as [number, number])), t);
    return results;
  }

  private async updateSessions(plans: WritePlan[], results: WriteResult[], t: Transaction): Promise<void> {
    const touched: Array<{ id: number; time: number; url: string | null; goal: number }> = [];
    plans.forEach((p, i) => {
      if (p.kind === 'update') touched.push({ id: p.sessionId, time: p.time, url: null, goal: 0 });
      else if (!isNew(p.session)) touched.push({ id: results[i]!.sessionId, time: p.statistic.time, url: p.session.lastVisitedUrl, goal: p.goals[0] ?? 0 });
    });
    if (touched.length === 0) return;
    const q = this.db.quote;
    const pages = touched.filter((x) => x.url !== null);
    const goals = touched.filter((x) => x.goal > 0);
    const sets = [`last_time = CASE ID ${touched.map(() => 'WHEN ? THEN ?').join(' ')} END`];
    const args: Array<string | number> = touched.flatMap((x) => [x.id, x.time]);
    if (pages.length > 0) {
      sets.push(`last_visited_url = CASE ID ${pages.map(() => 'WHEN ? THEN ?').join(' ')} ELSE last_visited_url END`);
      args.push(...pages.flatMap((x) => [x.id, x.url!]));
      sets.push(`bounce = CASE WHEN ID IN (${pages.map(() => '?').join(', ')}) THEN 0 ELSE bounce END`);
      args.push(...pages.map((x) => x.id));
    }
    if (goals.length > 0) {
      sets.push(`goal_id = CASE ID ${goals.map(() => 'WHEN ? THEN ?').join(' ')} ELSE goal_id END`);
      args.push(...goals.flatMap((x) => [x.id, x.goal]));
    }
    args.push(...touched.map((x) => x.id));
    await this.db.execute(
      `UPDATE ${q(this.db.table('sessions'))} SET ${sets.join(', ')} WHERE ID IN (${touched.map(() => '?').join(', ')})`,
      args,
      t,
    );
  }

  private async addTimeOnPage(plans: WritePlan[], results: WriteResult[], t: Transaction): Promise<void> {
    const updates = plans.flatMap((p, i) => (p.kind === 'update' && p.seconds > 0 ? [{ id: p.statisticId, seconds: p.seconds, i }] : []));
    plans.forEach((p, i) => {
      if (p.kind === 'update') results[i] = { statisticId: p.statisticId, sessionId: p.sessionId };
    });
    if (updates.length === 0) return;
    await this.db.execute(
      `UPDATE ${this.db.quote(this.db.table('statistics'))} SET time_on_page = time_on_page + CASE ID ${updates.map(() => 'WHEN ? THEN ?').join(' ')} ELSE 0 END WHERE ID IN (${updates.map(() => '?').join(', ')})`,
      [...updates.flatMap((u) => [u.id, u.seconds]), ...updates.map((u) => u.id)],
      t,
    );
  }

  private async insertGoals(pairs: Array<[number, number]>, t: Transaction): Promise<void> {
    if (pairs.length === 0) return;
    const verb = this.db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    await this.db.execute(
      `${verb} INTO ${this.db.quote(this.db.table('goal_statistics'))} (statistic_id, goal_id) VALUES ${pairs.map(() => '(?, ?)').join(', ')}`,
      pairs.flat(),
      t,
    );
  }
}
