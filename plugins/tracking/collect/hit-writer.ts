import { type Database, type DirectStatements, isCommitUnknown, type SvcLogger } from '../../../core';
import type { SvcStatistic } from '../../../hooks';
import { Batcher } from './batcher';
import type { HitStatements, SessionTouch } from './hit-statements';

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
 * (sessions, pageviews, session updates, time-on-page updates, goal joins).
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
    const write = (batch: WritePlan[]) => this.db.direct.transaction((s) => this.writeBatch(batch, s));
    try {
      return await write(plans);
    } catch (err) {
      // A batch whose COMMIT went unanswered may be stored: writing it again could count its hits twice.
      if (isCommitUnknown(err)) throw err;
      // A deadlock or busy database aborts the whole batch; one retry, then each hit alone.
      this.logger.warn({ err, hits: plans.length }, 'hit batch failed; retrying');
      if (plans.length === 1) return write(plans);
      const results: WriteResult[] = [];
      for (const plan of plans) results.push((await write([plan]))[0]!);
      return results;
    }
  }

  private async writeBatch(plans: WritePlan[], s: DirectStatements): Promise<WriteResult[]> {
    const results: WriteResult[] = plans.map(() => ({ statisticId: 0, sessionId: 0 }));
    const creates = plans.flatMap((p, i) => (p.kind === 'create' ? [{ p, i }] : []));

    const fresh = creates.filter(({ p }) => isNew(p.session));
    if (fresh.length > 0) {
      const ids = await this.sql.insertSessions(
        s,
        fresh.map(({ p }) => {
          const n = p.session as NewSession;
          return [p.siteId, n.uid, n.time, n.time, n.first_visited_url, n.last_visited_url, n.host, n.referrer, n.goal_id, n.city_code, n.browser_id, n.browser_version_id, n.platform_id, n.device_id, n.first_time_visit, 1, n.platform_version_id, n.screen];
        }),
      );
      fresh.forEach(({ i }, n) => (results[i]!.sessionId = ids[n]!));
    }
    for (const { p, i } of creates) if (!isNew(p.session)) results[i]!.sessionId = p.session.id;

    if (creates.length > 0) {
      const ids = await this.sql.insertStatistics(
        s,
        creates.map(({ p, i }) => {
          const st = p.statistic;
          st.session_id = results[i]!.sessionId;
          return [p.siteId, st.page_url, st.parameters, st.fragment, st.page_id, st.page_type, st.time, st.uid, st.time_on_page, st.session_id];
        }),
      );
      creates.forEach(({ p, i }, n) => {
        results[i]!.statisticId = ids[n]!;
        p.statistic.ID = ids[n]!;
      });
    }

    const touched: SessionTouch[] = [];
    plans.forEach((p, i) => {
      if (p.kind === 'update') touched.push({ id: p.sessionId, time: p.time, url: null, goal: 0 });
      else if (!isNew(p.session)) touched.push({ id: results[i]!.sessionId, time: p.statistic.time, url: p.session.lastVisitedUrl, goal: p.goals[0] ?? 0 });
    });
    await this.sql.updateSessions(s, touched);

    plans.forEach((p, i) => {
      if (p.kind === 'update') results[i] = { statisticId: p.statisticId, sessionId: p.sessionId };
    });
    await this.sql.addTimeOnPage(s, plans.flatMap((p) => (p.kind === 'update' && p.seconds > 0 ? [{ id: p.statisticId, seconds: p.seconds }] : [])));
    await this.sql.insertGoals(s, plans.flatMap((p, i) => p.goals.map((g) => [results[i]!.statisticId, g] as [number, number])));
    return results;
  }
}
