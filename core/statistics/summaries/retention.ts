import { DateTime } from 'luxon';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { badRequest } from '../../errors';
import type { SvcLogger } from '../../logger';
import type { SettingField } from '../../settings/settings';
import type { SummaryFolder } from './folder';

export const RETENTION_SETTING = 'statistics_retention_days';
const BATCH = 5000;

/** The documented retention setting (README "Statistics"): 0 keeps raw hits forever. */
export const retentionSetting: SettingField<number> = {
  key: RETENTION_SETTING,
  label: 'Keep raw hits for (days)',
  help: 'Pageviews and sessions older than this many days are deleted by the daily job once their days are folded into the daily summaries, which stay. 0 keeps raw hits forever. Filters the summaries cannot answer (regions, cities, goals, campaigns, several filters at once) only see the days still kept.',
  section: 'Data',
  type: 'number',
  default: 0,
  parse(raw) {
    const value = raw === '' || raw === undefined || raw === null ? 0 : Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 36500) throw badRequest('Must be a whole number of days from 0 to 36500.');
    return value;
  },
};

/** Unix start of the first site-timezone day kept when raw hits are kept for `days` days. */
export function retentionCutoff(now: number, timezone: string, days: number): number {
  return DateTime.fromSeconds(now, { zone: timezone }).startOf('day').minus({ days }).toSeconds();
}

/** Per dialect: MySQL deletes with LIMIT, SQLite through a limited id list. */
const DELETE_BATCH = {
  mysql: (table: string, where: string) => `DELETE FROM ${table} WHERE ${where} LIMIT ${BATCH}`,
  sqlite: (table: string, where: string) => `DELETE FROM ${table} WHERE ID IN (SELECT ID FROM ${table} WHERE ${where} LIMIT ${BATCH})`,
};

/** Deletes raw hits older than the retention period; the days are folded first so summaries keep them. */
export class Retention {
  constructor(
    private readonly db: Database,
    private readonly folder: SummaryFolder,
    private readonly clock: Clock,
    private readonly timezone: string,
    private readonly logger: SvcLogger,
  ) {}

  async prune(days: number): Promise<number> {
    if (days <= 0) return 0;
    const cutoff = retentionCutoff(this.clock.unix(), this.timezone, days);
    await this.folder.foldPending(Number.MAX_SAFE_INTEGER);
    const q = (name: string) => this.db.quote(this.db.table(name));
    let hits = 0;
    for (const siteId of await this.folder.sitesWithHits()) {
      await this.batches(
        q('goal_statistics'),
        `statistic_id IN (SELECT ID FROM ${q('statistics')} WHERE site_id = ? AND time < ?)`,
        [siteId, cutoff],
      );
      hits += await this.batches(q('statistics'), 'site_id = ? AND time < ?', [siteId, cutoff]);
    }
    await this.batches(q('sessions'), 'last_time < ?', [cutoff]);
    // The day blocks hold pageviews one by one: they go with the raw hits.
    await this.db.execute(`DELETE FROM ${q('summary_blocks')} WHERE day < ?`, [cutoff]);
    if (hits) this.logger.info({ hits, cutoff }, 'raw hits past the retention period deleted');
    return hits;
  }

  private async batches(table: string, where: string, params: unknown[]): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.execute(DELETE_BATCH[this.db.dialect](table, where), params);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
