import type { Request } from 'express';
import { type Clock, type Database, insertIgnoring } from '../../../core';
import { cleanId } from '../collect/payload';
import { WINDOW_SECONDS } from '../collect/tracker';
import type { GoalStore } from './goal-store';

/** The tracker's cookie in cookie mode. */
const UID_COOKIE = /(?:^|;\s*)svc_uid=([^;]*)/;

/**
 * Server-side goals of type `hook` (tracking.md §4.1): `handleHook(hookName,
 * uid)` completes the active hook goals named `hookName` for the visitor's
 * current pageview. The `uid` argument counts only when `SVC_HEADLESS_DOMAIN`
 * is defined; otherwise the visitor comes from the `svc_uid` cookie of the
 * request being served.
 */
export class HookGoals {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      goals: GoalStore;
      headlessDomain: string | null;
      currentRequest: () => Request | undefined;
    },
  ) {}

  /** Number of goals recorded (0 when no goal, visitor or pageview matches). */
  async handleHook(hookName: string, uid = ''): Promise<number> {
    const { db, clock } = this.deps;
    const cookie = this.deps.currentRequest()?.headers.cookie?.match(UID_COOKIE)?.[1] ?? '';
    // Cookie uids are plain ids; a percent-encoded one is junk and simply does not match.
    const visitor = cleanId(this.deps.headlessDomain ? uid : cookie);
    if (!visitor) return 0;
    const q = db.quote;
    const [row] = await db.select<{ ID: number; session_id: number; site_id: number }>(
      `SELECT st.ID, st.session_id, s.site_id FROM ${q(db.table('sessions'))} s JOIN ${q(db.table('statistics'))} st ON st.session_id = s.ID
        WHERE s.uid = ? AND s.last_time >= ? ORDER BY st.ID DESC LIMIT 1`,
      [visitor, clock.unix() - WINDOW_SECONDS],
    );
    if (!row) return 0;
    // The goals of the site the visitor's current pageview belongs to.
    const goals = (await this.deps.goals.activeGoals(Number(row.site_id))).filter((g) => g.type === 'hook' && g.hook === hookName);
    if (goals.length === 0) return 0;
    return db.transaction(async (t) => {
      const { affected: added } = await insertIgnoring(db, db.table('goal_statistics'), ['statistic_id', 'goal_id'], goals.map((g) => [row.ID, g.ID]), t);
      await db.execute(`UPDATE ${q(db.table('sessions'))} SET goal_id = ? WHERE ID = ?`, [goals[0]!.ID, row.session_id], t);
      return added;
    });
  }
}
