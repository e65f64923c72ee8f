import { type Database, isCommitUnknown, type SvcLogger } from '../../../core';
import type { SvcStatistic } from '../../../hooks';
import { Batcher } from './batcher';
import type { BatchWrites, HitStatements, RowRef } from './hit-statements';

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
  platform_version_id: number;
  device_id: number;
  /** The viewport width class the tracker sent (`SCREEN_CLASSES`), '' when none. */
  screen: string;
  first_time_visit: number;
}

/** What one hit writes. */
export type WritePlan =
  | {
      kind: 'create';
      siteId: number;
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

const isNew = (s: NewSession | { id: number }): s is NewSession => !('id' in s);

/**
 * Writes hits in batches: every hit planned while the previous batch commits
 * goes into the next one, as a few multi-row statements in one transaction
 * (sessions, pageviews, session updates, time-on-page updates, goal joins;
 * hit-statements.ts).
 * A batch is all or nothing; each batch holds at most one hit per visitor
 * (the pipeline serialises a visitor's hits).
 */
export class HitWriter {
  private readonly batcher: Batcher<WritePlan, WriteResult>;

  constructor(
    private readonly db: Database,
    private readonly sql: HitStatements,
    private readonly logger: SvcLogger,
  ) {
    // One batch at a time: SQLite has one writer, so concurrent transactions would only wait for
    // each other; on MariaDB/MySQL two batches halve each batch and double the statements per
    // hit, and overlapping batches touching the same sessions wait on each other's row locks.
    this.batcher = new Batcher((plans) => this.writeWithRetry(plans));
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
      return await this.writeBatch(plans);
    } catch (err) {
      // A batch whose COMMIT went unanswered may be stored: writing it again could count its hits twice.
      if (isCommitUnknown(err)) throw err;
      // A deadlock or busy database aborts the whole batch; one retry, then each hit alone.
      this.logger.warn({ err, hits: plans.length }, 'hit batch failed; retrying');
      if (plans.length === 1) return this.writeBatch(plans);
      const results: WriteResult[] = [];
      for (const plan of plans) results.push((await this.writeBatch([plan]))[0]!);
      return results;
    }
  }

  private async writeBatch(plans: WritePlan[]): Promise<WriteResult[]> {
    const batch: BatchWrites = { sessions: [], statistics: [], touched: [], seconds: [], goals: [] };
    for (const p of plans) {
      if (p.kind === 'update') {
        batch.touched.push({ id: p.sessionId, time: p.time, url: null, goal: 0 });
        if (p.seconds > 0) batch.seconds.push({ id: p.statisticId, seconds: p.seconds });
        for (const goal of p.goals) batch.goals.push({ statistic: p.statisticId, goal });
        continue;
      }
      let session: RowRef;
      if (isNew(p.session)) {
        const n = p.session;
        session = { fresh: batch.sessions.length };
        batch.sessions.push([p.siteId, n.uid, n.time, n.time, n.first_visited_url, n.last_visited_url, n.host, n.referrer, n.goal_id, n.city_code, n.browser_id, n.browser_version_id, n.platform_id, n.device_id, n.first_time_visit, 1, n.platform_version_id, n.screen]);
      } else {
        session = p.session.id;
        batch.touched.push({ id: p.session.id, time: p.statistic.time, url: p.session.lastVisitedUrl, goal: p.goals[0] ?? 0 });
      }
      const statistic = { fresh: batch.statistics.length };
      const st = p.statistic;
      batch.statistics.push({ values: [p.siteId, st.page_url, st.parameters, st.fragment, st.page_id, st.page_type, st.time, st.uid, st.time_on_page], session });
      for (const goal of p.goals) batch.goals.push({ statistic, goal });
    }
    const ids = await this.sql.write(this.db.direct, batch);
    let fresh = 0;
    let created = 0;
    return plans.map((p) => {
      if (p.kind === 'update') return { statisticId: p.statisticId, sessionId: p.sessionId };
      const sessionId = isNew(p.session) ? ids.sessions[fresh++]! : p.session.id;
      const statisticId = ids.statistics[created++]!;
      p.statistic.session_id = sessionId;
      p.statistic.ID = statisticId;
      return { statisticId, sessionId };
    });
  }
}
