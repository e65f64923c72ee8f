import type { Database } from '../../../core/db/database';
import type { SvcStatistic } from '../../../hooks';
import { Batcher } from './batcher';

/** What the database knows about a visitor before a hit (tracking.md §3.1-3.2). */
export interface VisitorState {
  /** The visitor's latest session, however old; null for a first visit. */
  session: { id: number; lastTime: number } | null;
  /** The last pageview of that session. */
  last: SvcStatistic | null;
}

/** The visitor's latest session joined with its last pageview (null columns when it has none). */
type Row = { s_id: number; s_uid: string; s_last_time: number; ID: number | null } & Required<Omit<SvcStatistic, 'ID' | 'search_term'>>;

const EMPTY: VisitorState = Object.freeze({ session: null, last: null });

/**
 * Reads visitors' latest session and pageview, one query for every hit that
 * arrives while the previous query runs.
 */
export class VisitorStates {
  private readonly batcher: Batcher<string, VisitorState>;

  constructor(private readonly db: Database) {
    this.batcher = new Batcher((uids) => this.query(uids), { concurrency: 1 });
  }

  load(uid: string): Promise<VisitorState> {
    return this.batcher.submit(uid);
  }

  private async query(uids: string[]): Promise<VisitorState[]> {
    const unique = [...new Set(uids)];
    const q = this.db.quote;
    const sessions = q(this.db.table('sessions'));
    const statistics = q(this.db.table('statistics'));
    const rows = await this.db.select<Row>(
      `SELECT s.ID AS s_id, s.uid AS s_uid, s.last_time AS s_last_time,
              st.ID, st.page_url, st.parameters, st.fragment, st.page_id, st.page_type, st.time, st.uid, st.time_on_page, st.session_id
         FROM (SELECT uid, MAX(ID) AS id FROM ${sessions} WHERE uid IN (${unique.map(() => '?').join(', ')}) GROUP BY uid) m
         JOIN ${sessions} s ON s.ID = m.id
         LEFT JOIN ${statistics} st ON st.ID = (SELECT MAX(x.ID) FROM ${statistics} x WHERE x.session_id = s.ID)`,
      unique,
    );
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
