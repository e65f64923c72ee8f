import type { Transaction } from 'sequelize';
import type { Database } from '../../../core/db/database';
import { insertIgnore, num, tbl } from '../db';

/** A session may be written a little after the shop event that belongs to it (clock skew between servers). */
const SKEW = 60;
const MAX_CAMPAIGN = 191;

/**
 * Links shop events to the visitor's tracked session through the uid, so
 * country (city_code), device and campaign come from tracking. One linker
 * serves one ingestion call and reads each visitor's sessions once.
 */
export class VisitorLinker {
  private readonly sessions = new Map<string, Array<{ id: number; time: number }>>();

  constructor(
    private readonly db: Database,
    /** Whether the sources plugin (which parses UTM fields into `svc_campaigns`) is loaded. */
    private readonly sourcesLoaded: () => boolean,
  ) {}

  /** The visitor's latest session started at or before `time`, or 0. */
  async session(uid: string, time: number, t: Transaction): Promise<number> {
    if (!uid) return 0;
    let known = this.sessions.get(uid);
    if (!known) {
      const rows = await this.db.select<{ ID: number; time: number }>(`SELECT ID, time FROM ${tbl(this.db, 'sessions')} WHERE uid = ? ORDER BY time, ID`, [uid], t);
      known = rows.map((r) => ({ id: num(r.ID), time: num(r.time) }));
      this.sessions.set(uid, known);
    }
    return known.findLast((s) => s.time <= time + SKEW)?.id ?? 0;
  }

  /**
   * The campaign the session arrived with, as an id of ecommerce_campaigns
   * (0 without one): the first `campaign` the sources plugin parsed for the
   * session's pageviews, else `utm_campaign` (key in any case) of its first
   * pageviews' query strings (statistics.parameters), which sources may not
   * have parsed yet.
   */
  async campaign(sessionId: number, t: Transaction): Promise<number> {
    if (!sessionId) return 0;
    const name = ((this.sourcesLoaded() ? await this.parsedCampaign(sessionId, t) : '') || (await this.rawCampaign(sessionId, t))).slice(0, MAX_CAMPAIGN);
    if (!name) return 0;
    const created = await insertIgnore(this.db, 'ecommerce_campaigns', { name }, t);
    if (created) return created;
    const [row] = await this.db.select<{ ID: number }>(`SELECT ID FROM ${tbl(this.db, 'ecommerce_campaigns')} WHERE name = ?`, [name], t);
    return num(row!.ID);
  }

  private async parsedCampaign(sessionId: number, t: Transaction): Promise<string> {
    const [row] = await this.db.select<{ campaign: string }>(
      `SELECT c.campaign FROM ${tbl(this.db, 'campaigns')} c JOIN ${tbl(this.db, 'statistics')} s ON s.ID = c.statistic_id
        WHERE s.session_id = ? AND c.campaign <> '' ORDER BY s.time, s.ID LIMIT 1`,
      [sessionId],
      t,
    );
    return row?.campaign ?? '';
  }

  private async rawCampaign(sessionId: number, t: Transaction): Promise<string> {
    const rows = await this.db.select<{ parameters: string }>(
      `SELECT parameters FROM ${tbl(this.db, 'statistics')} WHERE session_id = ? AND parameters <> '' ORDER BY time, ID LIMIT 5`,
      [sessionId],
      t,
    );
    for (const { parameters } of rows) {
      for (const [key, value] of new URLSearchParams(parameters)) if (key.toLowerCase() === 'utm_campaign' && value.trim()) return value.trim();
    }
    return '';
  }
}
