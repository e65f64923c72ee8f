import { type Database, insertIgnoring } from '../../../core';
import type { GoalStore } from '../goals/goal-store';

export type DemoKind = 'session' | 'goal';

/** Rows marked or sessions deleted per statement. */
const BATCH = 500;

export interface DemoRemoval {
  sessions: number;
  pageviews: number;
  goals: number;
  /** Per site, unix times of the first and last demo hit removed (none when there was none). */
  spans: Array<{ siteId: number; from: number; to: number }>;
}

/**
 * The rows `svc demo` generated in the tracking tables (`{prefix}svc_demo_rows`),
 * and their removal: a demo session goes with its pageviews, goal
 * completions, searches and outbound links; a demo goal goes once no
 * completion of it is left. Real rows are never touched.
 */
export class DemoMarks {
  constructor(
    private readonly db: Database,
    private readonly goals: GoalStore,
  ) {}

  private t(name: string): string {
    return this.db.quote(this.db.table(name));
  }

  async mark(kind: DemoKind, ids: Iterable<number>): Promise<void> {
    const all = [...ids];
    for (let i = 0; i < all.length; i += BATCH) {
      const chunk = all.slice(i, i + BATCH);
      // A mark written twice is kept once.
      await insertIgnoring(this.db, this.db.table('demo_rows'), ['kind', 'row_id'], chunk.map((id) => [kind, id]));
    }
  }

  private async count(kind: DemoKind): Promise<number> {
    const [row] = await this.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.t('demo_rows')} WHERE kind = ?`, [kind]);
    return Number(row?.n ?? 0);
  }

  private async marked(kind: DemoKind, limit?: number): Promise<number[]> {
    const rows = await this.db.select<{ row_id: number }>(
      `SELECT row_id FROM ${this.t('demo_rows')} WHERE kind = ? ORDER BY row_id${limit ? ` LIMIT ${Math.trunc(limit)}` : ''}`,
      [kind],
    );
    return rows.map((r) => Number(r.row_id));
  }

  /** Deletes every marked row, a batch of sessions per transaction (a run that stops half-way can be repeated). */
  async remove(progress: (done: number, total: number) => void): Promise<DemoRemoval> {
    const sessionMarks = `SELECT row_id FROM ${this.t('demo_rows')} WHERE kind = 'session'`;
    const spans = await this.db.select<{ site_id: number; first: number; last: number }>(
      `SELECT site_id, MIN(time) AS first, MAX(last_time) AS last FROM ${this.t('sessions')} WHERE ID IN (${sessionMarks}) GROUP BY site_id ORDER BY site_id`,
    );
    const total = await this.count('session');
    const removal: DemoRemoval = {
      sessions: 0,
      pageviews: 0,
      goals: 0,
      spans: spans.map((s) => ({ siteId: Number(s.site_id), from: Number(s.first), to: Number(s.last) })),
    };
    for (let ids = await this.marked('session', BATCH); ids.length > 0; ids = await this.marked('session', BATCH)) {
      const list = ids.map(() => '?').join(', ');
      await this.db.transaction(async (t) => {
        const hits = `SELECT ID FROM ${this.t('statistics')} WHERE session_id IN (${list})`;
        for (const joined of ['goal_statistics', 'statistics_searches', 'statistics_external_links']) {
          await this.db.execute(`DELETE FROM ${this.t(joined)} WHERE statistic_id IN (${hits})`, ids, t);
        }
        removal.pageviews += await this.db.execute(`DELETE FROM ${this.t('statistics')} WHERE session_id IN (${list})`, ids, t);
        removal.sessions += await this.db.execute(`DELETE FROM ${this.t('sessions')} WHERE ID IN (${list})`, ids, t);
        await this.db.execute(`DELETE FROM ${this.t('demo_rows')} WHERE kind = 'session' AND row_id IN (${list})`, ids, t);
      });
      progress(total - (await this.count('session')), total);
    }
    for (const id of await this.marked('goal')) {
      const [left] = await this.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.t('goal_statistics')} WHERE goal_id = ?`, [id]);
      const [goal] = await this.db.select<{ site_id: number }>(`SELECT site_id FROM ${this.t('goals')} WHERE ID = ?`, [id]);
      if (goal && Number(left?.n ?? 0) === 0) {
        await this.goals.delete(Number(goal.site_id), id);
        removal.goals++;
      }
      await this.db.execute(`DELETE FROM ${this.t('demo_rows')} WHERE kind = 'goal' AND row_id = ?`, [id]);
    }
    return removal;
  }
}
