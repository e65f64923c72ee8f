import type { Database } from '../../db/database';

/** Which site-timezone days of each site are folded into the summaries (`summary_state`). */
export class SummaryState {
  constructor(private readonly db: Database) {}

  private get table(): string {
    return this.db.quote(this.db.table('summary_state'));
  }

  /** Days among `days` whose summaries of the site are current (folded and not marked dirty since). */
  async current(siteId: number, days: readonly number[]): Promise<Set<number>> {
    if (days.length === 0) return new Set();
    const rows = await this.db.select<{ day: number }>(
      `SELECT day FROM ${this.table} WHERE site_id = ? AND day >= ? AND day <= ? AND dirty = 0`,
      [siteId, days[0], days[days.length - 1]],
    );
    return new Set(rows.map((r) => Number(r.day)));
  }

  /** Folded days of the site with the time they were folded and whether they are dirty. */
  async list(siteId: number, from: number, to: number): Promise<Map<number, { foldedAt: number; dirty: boolean }>> {
    const rows = await this.db.select<{ day: number; folded_at: number; dirty: number }>(
      `SELECT day, folded_at, dirty FROM ${this.table} WHERE site_id = ? AND day >= ? AND day <= ?`,
      [siteId, from, to],
    );
    return new Map(rows.map((r) => [Number(r.day), { foldedAt: Number(r.folded_at), dirty: Number(r.dirty) === 1 }]));
  }

  /** A late hit landed on the site's `day`: its summaries are stale until the next fold. */
  async markDirty(siteId: number, day: number): Promise<void> {
    await this.db.execute(`UPDATE ${this.table} SET dirty = 1 WHERE site_id = ? AND day = ? AND dirty = 0`, [siteId, day]);
  }
}
