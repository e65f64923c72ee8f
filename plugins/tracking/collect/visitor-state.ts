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

interface Visitor {
  siteId: number;
  uid: string;
}

const keyOf = (siteId: number, uid: string) => `${siteId} ${uid}`;

/**
 * Reads visitors' latest session and pageview on a site, one query for every
 * hit that arrives while the previous query runs.
 */
export class VisitorStates {
  private readonly batcher: Batcher<Visitor, VisitorState>;

  constructor(
    private readonly db: Database,
    private readonly sql: HitStatements,
  ) {
    this.batcher = new Batcher((visitors) => this.query(visitors), { concurrency: 1 });
  }

  load(siteId: number, uid: string): Promise<VisitorState> {
    return this.batcher.submit({ siteId, uid });
  }

  private async query(visitors: Visitor[]): Promise<VisitorState[]> {
    const rows = await this.sql.visitors(this.db.direct, [...new Set(visitors.map((v) => v.uid))]);
    const byVisitor = new Map<string, VisitorState>();
    for (const r of rows) {
      byVisitor.set(keyOf(Number(r.s_site_id), r.s_uid), {
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
    return visitors.map((v) => byVisitor.get(keyOf(v.siteId, v.uid)) ?? EMPTY);
  }
}
