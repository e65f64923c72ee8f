import { LRUCache } from 'lru-cache';
import { type Clock, type Database, type Hooks, insertIfAbsent, type SvcLogger } from '../../../core';
import type { SvcStatistic } from '../../../hooks';
import { plainText } from '../collect/payload';
import { WINDOW_SECONDS } from '../collect/tracker';
import { type SearchRejection, rejectSearch, searchRules } from './search-filters';

/** Pending searches nobody linked are removed after this long. */
export const PENDING_TTL_SECONDS = 24 * 60 * 60;

export type SearchOutcome = { stored: true; linked: boolean } | { stored: false; reason: SearchRejection | 'excluded' };

interface LinkRow {
  ID: number;
  search_id: number;
  search_term: string;
}

/**
 * Search terms (tracking.md §7, §8.1): distinct terms in `svc_searches`,
 * pageview joins with result counts in `svc_statistics_searches`. A search
 * captured before its pageview exists waits with a null statistic_id and is
 * linked once the pageview is created; a longer typed term extending a
 * recent shorter one of the same pageview repoints that link.
 */
export class SearchStore {
  private readonly ids = new LRUCache<string, number>({ max: 5_000 });

  constructor(
    private readonly db: Database,
    private readonly hooks: Hooks,
    private readonly clock: Clock,
    private readonly logger: SvcLogger,
    private readonly locales: string[],
  ) {}

  private t(name: string): string {
    return this.db.quote(this.db.table(name));
  }

  /** `link_pending_search(statistic_id, statistic)`: after a pageview with a search term is created. */
  async linkPendingSearch(statisticId: number, statistic: SvcStatistic): Promise<SearchOutcome | null> {
    if (!(statisticId > 0) || !statistic.search_term) return null;
    return this.store(statistic.search_term, null, { statisticId, uid: statistic.uid });
  }

  /**
   * A search the site ran (`capture_search_and_posts`): linked at once to the
   * visitor's open pageview (on `siteId` when the caller named a site) when the
   * uid is known, else kept pending.
   */
  async capture(rawTerm: unknown, results: number | null, uid: string, siteId: number | null = null): Promise<SearchOutcome> {
    const term = plainText(rawTerm, 191);
    let statisticId: number | null = null;
    if (uid) {
      const site = siteId === null ? '' : ' AND s.site_id = ?';
      const [row] = await this.db.select<{ ID: number }>(
        `SELECT st.ID FROM ${this.t('sessions')} s JOIN ${this.t('statistics')} st ON st.session_id = s.ID
          WHERE s.uid = ? AND s.last_time >= ?${site} ORDER BY st.ID DESC LIMIT 1`,
        [uid, this.clock.unix() - WINDOW_SECONDS, ...(siteId === null ? [] : [siteId])],
      );
      statisticId = row ? Number(row.ID) : null;
    }
    return this.store(term, results, { statisticId, uid });
  }

  /** Drops pending rows nobody linked and terms no row refers to (daily maintenance). */
  async cleanUp(): Promise<{ pending: number; terms: number }> {
    const pending = await this.db.execute(`DELETE FROM ${this.t('statistics_searches')} WHERE statistic_id IS NULL AND time < ?`, [
      this.clock.unix() - PENDING_TTL_SECONDS,
    ]);
    const terms = await this.db.execute(
      `DELETE FROM ${this.t('searches')} WHERE NOT EXISTS (SELECT 1 FROM ${this.t('statistics_searches')} l WHERE l.search_id = ${this.t('searches')}.ID)`,
    );
    if (terms > 0) this.ids.clear();
    return { pending, terms };
  }

  private async store(term: string, results: number | null, target: { statisticId: number | null; uid: string }): Promise<SearchOutcome> {
    const rules = await searchRules(this.hooks, this.locales);
    const reason = rejectSearch(term, rules);
    if (reason) {
      this.logger.debug({ reason }, 'search term discarded');
      return { stored: false, reason };
    }
    const searchId = await this.termId(term);
    const now = this.clock.unix();
    if (target.statisticId === null) {
      await this.insertLink(null, searchId, results, target.uid, now);
      return { stored: true, linked: false };
    }
    const statisticId = target.statisticId;
    const recent = await this.db.select<LinkRow>(
      `SELECT l.ID, l.search_id, s.search_term FROM ${this.t('statistics_searches')} l JOIN ${this.t('searches')} s ON s.ID = l.search_id
        WHERE l.statistic_id = ? AND l.time >= ? ORDER BY l.ID DESC`,
      [statisticId, now - rules.mergeWindow],
    );
    if (recent.some((r) => Number(r.search_id) === searchId)) return { stored: true, linked: true };
    const pending = await this.takePending(searchId, target.uid, now);
    const extended = recent.find((r) => term.length > r.search_term.length && term.toLowerCase().startsWith(r.search_term.toLowerCase()));
    if (extended) {
      await this.db.execute(`UPDATE ${this.t('statistics_searches')} SET search_id = ?, results = COALESCE(?, results), time = ? WHERE ID = ?`, [
        searchId,
        pending?.results ?? results,
        now,
        extended.ID,
      ]);
      if (pending) await this.db.execute(`DELETE FROM ${this.t('statistics_searches')} WHERE ID = ?`, [pending.ID]);
      return { stored: true, linked: true };
    }
    if (pending) {
      const linked = await this.db.execute(
        `UPDATE ${this.t('statistics_searches')} SET statistic_id = ?, results = COALESCE(?, results) WHERE ID = ? AND statistic_id IS NULL`,
        [statisticId, results, pending.ID],
      );
      if (linked === 1) return { stored: true, linked: true };
    }
    await this.insertLink(statisticId, searchId, results, target.uid, now);
    return { stored: true, linked: true };
  }

  /** The oldest pending row of this term for this visitor (or of an unknown visitor) within the session window. */
  private async takePending(searchId: number, uid: string, now: number): Promise<{ ID: number; results: number | null } | null> {
    const [row] = await this.db.select<{ ID: number; results: number | null }>(
      `SELECT ID, results FROM ${this.t('statistics_searches')}
        WHERE statistic_id IS NULL AND search_id = ? AND (uid = '' OR uid = ?) AND time >= ? ORDER BY ID LIMIT 1`,
      [searchId, uid, now - WINDOW_SECONDS],
    );
    return row ? { ID: Number(row.ID), results: row.results === null ? null : Number(row.results) } : null;
  }

  private async insertLink(statisticId: number | null, searchId: number, results: number | null, uid: string, time: number): Promise<void> {
    await this.db.execute(`INSERT INTO ${this.t('statistics_searches')} (statistic_id, search_id, results, uid, time) VALUES (?, ?, ?, ?, ?)`, [
      statisticId,
      searchId,
      results,
      uid,
      time,
    ]);
  }

  private async termId(term: string): Promise<number> {
    const cached = this.ids.get(term);
    if (cached) return cached;
    const find = async () => (await this.db.select<{ ID: number }>(`SELECT ID FROM ${this.t('searches')} WHERE search_term = ?`, [term]))[0];
    const row = (await find()) ?? ((await insertIfAbsent(this.db, this.db.table('searches'), { search_term: term, created: this.clock.unix() })), await find());
    if (!row) throw new Error('search term could not be stored');
    this.ids.set(term, Number(row.ID));
    return Number(row.ID);
  }
}
