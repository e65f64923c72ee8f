import type { Database, DirectStatements, DirectValue } from '../../../core';
import type { SvcStatistic } from '../../../hooks';

/**
 * Every statement a tracked hit runs, in one place, on the database driver
 * directly (`db.direct`): the read of visitors' previous state and the
 * multi-row writes of a batch. They are the same SQL on both dialects except
 * where the map below says otherwise.
 */

/** The engines differ in how a multi-row INSERT reports its ids, and in how an INSERT skips duplicates. */
type Engine = 'sqlite' | 'mariadb' | 'mysql';

interface EngineSql {
  insertIgnore: string;
  /** Runs a multi-row INSERT of `rows` rows and gives the new ids in row order. */
  insertIds(s: DirectStatements, sql: string, values: DirectValue[], rows: number, increment: number): Promise<number[]>;
}

const ENGINES: Record<Engine, EngineSql> = {
  // One writer and rowids counting up: the last id, the others precede it.
  sqlite: {
    insertIgnore: 'INSERT OR IGNORE',
    insertIds: async (s, sql, values, rows) => {
      const { lastId } = await s.run(sql, values);
      return Array.from({ length: rows }, (_, i) => lastId - (rows - 1) + i);
    },
  },
  // MariaDB answers the ids itself.
  mariadb: {
    insertIgnore: 'INSERT IGNORE',
    insertIds: async (s, sql, values) => (await s.all<{ ID: number }>(`${sql} RETURNING ID`, values)).map((r) => Number(r.ID)).sort((a, b) => a - b),
  },
  // MySQL gives the first id; the rest follow by auto_increment_increment.
  mysql: {
    insertIgnore: 'INSERT IGNORE',
    insertIds: async (s, sql, values, rows, increment) => {
      const { lastId } = await s.run(sql, values);
      return Array.from({ length: rows }, (_, i) => lastId + i * increment);
    },
  },
};

export const SESSION_COLUMNS = [
  'site_id',
  'uid',
  'time',
  'last_time',
  'first_visited_url',
  'last_visited_url',
  'host',
  'referrer',
  'goal_id',
  'city_code',
  'browser_id',
  'browser_version_id',
  'platform_id',
  'device_id',
  'first_time_visit',
  'bounce',
  'platform_version_id',
  'screen',
] as const;
export const STATISTIC_COLUMNS = ['site_id', 'page_url', 'parameters', 'fragment', 'page_id', 'page_type', 'time', 'uid', 'time_on_page', 'session_id'] as const;

/** A visitor's latest session joined with its last pageview (null columns when it has none). */
export type VisitorRow = { s_id: number; s_site_id: number; s_uid: string; s_last_time: number; ID: number | null } & Required<Omit<SvcStatistic, 'ID' | 'search_term'>>;

/** A session the batch touches: its last activity, and for a page view the URL it reaches and its first goal. */
export interface SessionTouch {
  id: number;
  time: number;
  url: string | null;
  goal: number;
}

/** `n` copies of `item` joined by `separator`. */
const marks = (n: number, item: string, separator = ', ') => Array.from({ length: n }, () => item).join(separator);

export class HitStatements {
  private readonly sessions: string;
  private readonly statistics: string;
  private readonly goalStatistics: string;
  private readonly sessionInsert: string;
  private readonly statisticInsert: string;

  private constructor(
    db: Database,
    private readonly engine: EngineSql,
    private readonly increment: number,
  ) {
    const q = db.quote;
    this.sessions = q(db.table('sessions'));
    this.statistics = q(db.table('statistics'));
    this.goalStatistics = q(db.table('goal_statistics'));
    this.sessionInsert = `INSERT INTO ${this.sessions} (${SESSION_COLUMNS.map(q).join(', ')}) VALUES `;
    this.statisticInsert = `INSERT INTO ${this.statistics} (${STATISTIC_COLUMNS.map(q).join(', ')}) VALUES `;
  }

  /** Asks a MySQL-family server which engine it is and how its ids step. */
  static async create(db: Database): Promise<HitStatements> {
    if (db.dialect === 'sqlite') return new HitStatements(db, ENGINES.sqlite, 1);
    const [row] = await db.direct.all<{ v: string; inc: number }>('SELECT VERSION() AS v, @@auto_increment_increment AS inc', []);
    return new HitStatements(db, /mariadb/i.test(row?.v ?? '') ? ENGINES.mariadb : ENGINES.mysql, Number(row?.inc ?? 1) || 1);
  }

  /** The latest session of each visitor on each site and that session's last pageview. */
  visitors(s: DirectStatements, uids: string[]): Promise<VisitorRow[]> {
    return s.all<VisitorRow>(
      `SELECT s.ID AS s_id, s.site_id AS s_site_id, s.uid AS s_uid, s.last_time AS s_last_time,
              st.ID, st.page_url, st.parameters, st.fragment, st.page_id, st.page_type, st.time, st.uid, st.time_on_page, st.session_id
         FROM (SELECT uid, site_id, MAX(ID) AS id FROM ${this.sessions} WHERE uid IN (${marks(uids.length, '?')}) GROUP BY uid, site_id) m
         JOIN ${this.sessions} s ON s.ID = m.id
         LEFT JOIN ${this.statistics} st ON st.ID = (SELECT MAX(x.ID) FROM ${this.statistics} x WHERE x.session_id = s.ID)`,
      uids,
    );
  }

  /** New sessions, rows in SESSION_COLUMNS order; their ids in row order. */
  insertSessions(s: DirectStatements, rows: DirectValue[][]): Promise<number[]> {
    const sql = this.sessionInsert + marks(rows.length, `(${marks(SESSION_COLUMNS.length, '?')})`);
    return this.engine.insertIds(s, sql, rows.flat(), rows.length, this.increment);
  }

  /** New pageviews, rows in STATISTIC_COLUMNS order; their ids in row order. */
  insertStatistics(s: DirectStatements, rows: DirectValue[][]): Promise<number[]> {
    const sql = this.statisticInsert + marks(rows.length, `(${marks(STATISTIC_COLUMNS.length, '?')})`);
    return this.engine.insertIds(s, sql, rows.flat(), rows.length, this.increment);
  }

  /** Last activity of every touched session; last URL and bounce for those that got a pageview; the first goal where one was reached. */
  async updateSessions(s: DirectStatements, touched: SessionTouch[]): Promise<void> {
    if (touched.length === 0) return;
    const pages = touched.filter((x) => x.url !== null);
    const goals = touched.filter((x) => x.goal > 0);
    const sets = [`last_time = CASE ID ${marks(touched.length, 'WHEN ? THEN ?', ' ')} END`];
    const values: DirectValue[] = touched.flatMap((x) => [x.id, x.time]);
    if (pages.length > 0) {
      sets.push(`last_visited_url = CASE ID ${marks(pages.length, 'WHEN ? THEN ?', ' ')} ELSE last_visited_url END`);
      values.push(...pages.flatMap((x) => [x.id, x.url!]));
      sets.push(`bounce = CASE WHEN ID IN (${marks(pages.length, '?')}) THEN 0 ELSE bounce END`);
      values.push(...pages.map((x) => x.id));
    }
    if (goals.length > 0) {
      sets.push(`goal_id = CASE ID ${marks(goals.length, 'WHEN ? THEN ?', ' ')} ELSE goal_id END`);
      values.push(...goals.flatMap((x) => [x.id, x.goal]));
    }
    values.push(...touched.map((x) => x.id));
    await s.run(`UPDATE ${this.sessions} SET ${sets.join(', ')} WHERE ID IN (${marks(touched.length, '?')})`, values);
  }

  /** Heartbeats: seconds added to the time on page of their pageviews. */
  async addTimeOnPage(s: DirectStatements, updates: Array<{ id: number; seconds: number }>): Promise<void> {
    if (updates.length === 0) return;
    await s.run(
      `UPDATE ${this.statistics} SET time_on_page = time_on_page + CASE ID ${marks(updates.length, 'WHEN ? THEN ?', ' ')} ELSE 0 END WHERE ID IN (${marks(updates.length, '?')})`,
      [...updates.flatMap((u) => [u.id, u.seconds]), ...updates.map((u) => u.id)],
    );
  }

  /** Goal completions, [statistic id, goal id]; a pair already stored is skipped. */
  async insertGoals(s: DirectStatements, pairs: Array<[number, number]>): Promise<void> {
    if (pairs.length === 0) return;
    await s.run(`${this.engine.insertIgnore} INTO ${this.goalStatistics} (statistic_id, goal_id) VALUES ${marks(pairs.length, '(?, ?)')}`, pairs.flat());
  }
}
