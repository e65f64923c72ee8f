import type { Database } from '../../../core';
import type { SvcStatistic } from '../../../hooks';
import { Batcher } from './batcher';
import type { HitStatements } from './hit-statements';

/** What the database knows about a visitor before a hit (tracking.md §3.1-3.2). */
export interface VisitorState {
  /** The visitor's latest session, however old; null for a first visit. */
  session: { id: number; lastTime: number } | null;
  /** The last pageview of that session. */
  last: SvcStatistic | null;
}

const EMPTY: VisitorState = Object.freeze({ session: null, last: null });

/**
 * Reads visitors' latest session and pageview, one query for every hit that
 * arrives while the previous query runs.
 */
export class VisitorStates {
  private readonly batcher: Batcher<string, VisitorState>;

  constructor(
    private readonly db: Database,
    private readonly sql: HitStatements,
  ) {
    this.batcher = new Batcher((uids) => this.query(uids), { concurrency: 1 });
  }

  load(uid: string): Promise<VisitorState> {
    return this.batcher.submit(uid);
  }

  private async query(uids: string[]): Promise<VisitorState[]> {
    const rows = await this.sql.visitors(this.db.direct, [...new Set(uids)]);
    const byUid = new Map<string, VisitorState>();
    for (const r of rows) {
      byUid.set(r.s_uid, {
        session: { id: Number(r.s_id), lastTime: Number(r.s_last_time) },
        last:
          r.ID === null
            ? null
            : {
                ID: Number(r.ID),
                page_url: r.page_url,
                parameters: r.parameters,
                fragment: r.fragment,
                page_id: Number(r.page_id),
                page_type: r.page_type,
                time: Number(r.time),
                uid: r.uid,
                time_on_page: Number(r.time_on_page),
                session_id: Number(r.session_id),
              },
      });
    }
    return uids.map((uid) => byUid.get(uid) ?? EMPTY);
  }
}
