import type { Transaction } from 'sequelize';
import { type Database, insertIfAbsent, type Options, type Soon } from '../../../core';
import type { CampaignsService, UtmField } from '../contract';
import { parseUtm } from './utm';

const CURSOR = 'svc_sources_campaign_cursor';
const BATCH = 5000;

/**
 * Fills `svc_campaigns` from the query strings of tracked pageviews: at once
 * for new hits (`svc_after_create_statistic`) and by a catch-up over the rows
 * after a cursor, so hits written another way (imports, `svc demo`, a node that
 * missed the action) are parsed too. The unique statistic id keeps it idempotent.
 */
export class CampaignStore implements CampaignsService {
  constructor(
    private readonly db: Database,
    private readonly options: Options,
  ) {}

  private get table(): string {
    return this.db.table('campaigns');
  }

  /** Records the campaign of one pageview; false (at once) when its query string carries no UTM fields, as most do. */
  record(statisticId: number, time: number, parameters: string): Soon<boolean> {
    const campaign = parseUtm(parameters);
    if (!campaign || statisticId <= 0) return false;
    return insertIfAbsent(this.db, this.table, { statistic_id: statisticId, time, ...campaign });
  }

  async sessionUtm(sessionId: number, field: UtmField, transaction?: Transaction): Promise<string> {
    const column = `c.${this.db.quote(field)}`;
    const [row] = await this.db.select<{ value: string }>(
      `SELECT ${column} AS value FROM ${this.db.quote(this.table)} c JOIN ${this.db.quote(this.db.table('statistics'))} s ON s.ID = c.statistic_id
        WHERE s.session_id = ? AND ${column} <> '' ORDER BY s.time, s.ID LIMIT 1`,
      [sessionId],
      transaction,
    );
    return row?.value ?? '';
  }

  /** Parses every pageview after the cursor; returns how many campaigns were recorded. */
  async catchUp(): Promise<number> {
    let cursor = await this.options.get<number>(CURSOR, 0);
    let recorded = 0;
    for (;;) {
      const rows = await this.db.select<{ ID: number; time: number; parameters: string }>(
        `SELECT ID, time, parameters FROM ${this.db.quote(this.db.table('statistics'))} WHERE ID > ? ORDER BY ID LIMIT ${BATCH}`,
        [cursor],
      );
      for (const row of rows) if (await this.record(Number(row.ID), Number(row.time), String(row.parameters ?? ''))) recorded++;
      if (rows.length > 0) {
        cursor = Number(rows[rows.length - 1]!.ID);
        await this.options.set(CURSOR, cursor, { autoload: false });
      }
      if (rows.length < BATCH) return recorded;
    }
  }

  /** Deletes the campaigns of a site's pageviews (the site is being removed; its pageviews are still there). */
  async removeSite(siteId: number): Promise<number> {
    const statistics = this.db.quote(this.db.table('statistics'));
    return this.db.execute(`DELETE FROM ${this.db.quote(this.table)} WHERE statistic_id IN (SELECT ID FROM ${statistics} WHERE site_id = ?)`, [siteId]);
  }

  /** Deletes campaigns of pageviews older than `cutoff` (the raw-hit retention). */
  async prune(cutoff: number): Promise<number> {
    return this.db.execute(`DELETE FROM ${this.db.quote(this.table)} WHERE time < ?`, [cutoff]);
  }
}
