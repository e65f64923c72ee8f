import type { Database, DirectDatabase, DirectStatements, DirectValue } from '../../../core';
import type { SvcStatistic } from '../../../hooks';

/**
 * Every statement a tracked hit runs, in one place, on the database driver
 * directly (`db.direct`): the read of visitors' previous state and the
 * multi-row writes of a batch. The statements are the same SQL on every
 * engine except where the map below says otherwise; how a batch travels
 * differs: MariaDB takes the whole batch, transaction included, as one
 * compound statement (one round trip), the others statement by statement.
 */

/** The engines differ in how a multi-row INSERT reports its ids, in how an INSERT skips duplicates, and in how a batch travels. */
type Engine = 'sqlite' | 'mariadb' | 'mysql';

interface EngineSql {
  insertIgnore: string;
  /** The first id a multi-row INSERT gave; the others follow it by `step`. */
  firstId(lastId: number, rows: number, step: number): number;
  /** MariaDB: the batch as one compound statement. */
  script: boolean;
}

/**
 * A multi-row INSERT ... VALUES (a "simple insert") gets consecutive ids on
 * every engine, stepped by auto_increment_increment on MySQL-family servers
 * (a Galera node's share of the ids).
 */
const ENGINES: Record<Engine, EngineSql> = {
  // One writer and rowids counting up: SQLite reports the last id.
  sqlite: { insertIgnore: 'INSERT OR IGNORE', firstId: (lastId, rows) => lastId - (rows - 1), script: false },
  mariadb: { insertIgnore: 'INSERT IGNORE', firstId: (lastId) => lastId, script: true },
  mysql: { insertIgnore: 'INSERT IGNORE', firstId: (lastId) => lastId, script: false },
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

/** A pageview's session, or a row this batch inserts: its index among them. */
export type RowRef = number | { fresh: number };

/** Everything one batch writes; rows of this batch refer to each other by index. */
export interface BatchWrites {
  /** New sessions, in SESSION_COLUMNS order. */
  sessions: DirectValue[][];
  /** New pageviews, in STATISTIC_COLUMNS order but for the last (`session_id`), and their session. */
  statistics: Array<{ values: DirectValue[]; session: RowRef }>;
  touched: SessionTouch[];
  /** Heartbeats: seconds added to pageviews. */
  seconds: Array<{ id: number; seconds: number }>;
  /** Goal completions of pageviews. */
  goals: Array<{ statistic: RowRef; goal: number }>;
}

/** Ids of the batch's new sessions and pageviews, in row order. */
export interface BatchIds {
  sessions: number[];
  statistics: number[];
}

/** A statement with its values. */
interface Statement {
  sql: string;
  values: DirectValue[];
}

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

  /** Writes a batch in one transaction; its new rows' ids. */
  write(db: DirectDatabase, batch: BatchWrites): Promise<BatchIds> {
    return this.engine.script ? this.writeScript(db, batch) : db.transaction((s) => this.writeStatements(s, batch));
  }

  private async writeStatements(s: DirectStatements, batch: BatchWrites): Promise<BatchIds> {
    const sessions = await this.insertIds(s, this.sessionInsert, batch.sessions);
    const id = (ref: RowRef, ids: number[]) => (typeof ref === 'number' ? ref : ids[ref.fresh]!);
    const statistics = await this.insertIds(s, this.statisticInsert, batch.statistics.map((r) => [...r.values, id(r.session, sessions)]));
    for (const statement of [this.updateSessions(batch.touched), this.addTimeOnPage(batch.seconds), this.insertGoals(batch.goals.map((g) => [id(g.statistic, statistics), g.goal]))]) {
      if (statement) await s.run(statement.sql, statement.values);
    }
    return { sessions, statistics };
  }

  /** A multi-row INSERT of `rows`; the new ids in row order. */
  private async insertIds(s: DirectStatements, insert: string, rows: DirectValue[][]): Promise<number[]> {
    if (rows.length === 0) return [];
    const { lastId } = await s.run(insert + marks(rows.length, `(${marks(rows[0]!.length, '?')})`), rows.flat());
    return this.ids(this.engine.firstId(lastId, rows.length, this.increment), rows.length, this.increment);
  }

  private ids(first: number, rows: number, step: number): number[] {
    return Array.from({ length: rows }, (_, i) => first + i * step);
  }

  /**
   * MariaDB: the batch as one compound statement, its transaction included.
   * Rows refer to the batch's new sessions and pageviews by the first id of
   * their INSERT (kept in local variables) and their index.
   */
  private async writeScript(db: DirectDatabase, batch: BatchWrites): Promise<BatchIds> {
    const parts = ['BEGIN NOT ATOMIC', 'DECLARE s, t BIGINT DEFAULT 0;', 'START TRANSACTION;'];
    const values: DirectValue[] = [];
    const add = (statement: Statement | null) => {
      if (!statement) return;
      parts.push(`${statement.sql};`);
      for (const v of statement.values) values.push(v);
    };
    // `?` for a row of another batch; else the first id of this batch's INSERT stepped `?` times.
    const ref = (variable: string, r: RowRef) => {
      values.push(typeof r === 'number' ? r : r.fresh);
      return typeof r === 'number' ? '?' : `${variable} + ? * @@auto_increment_increment`;
    };
    if (batch.sessions.length > 0) {
      add({ sql: this.sessionInsert + marks(batch.sessions.length, `(${marks(SESSION_COLUMNS.length, '?')})`), values: batch.sessions.flat() });
      parts.push('SET s = LAST_INSERT_ID();');
    }
    if (batch.statistics.length > 0) {
      const tuple = marks(STATISTIC_COLUMNS.length - 1, '?');
      const rows = batch.statistics.map((r) => {
        for (const v of r.values) values.push(v);
        return `(${tuple}, ${ref('s', r.session)})`;
      });
      parts.push(`${this.statisticInsert}${rows.join(', ')};`, 'SET t = LAST_INSERT_ID();');
    }
    add(this.updateSessions(batch.touched));
    add(this.addTimeOnPage(batch.seconds));
    if (batch.goals.length > 0) {
      const rows = batch.goals.map((g) => {
        const statistic = ref('t', g.statistic);
        values.push(g.goal);
        return `(${statistic}, ?)`;
      });
      parts.push(`${this.engine.insertIgnore} INTO ${this.goalStatistics} (statistic_id, goal_id) VALUES ${rows.join(', ')};`);
    }
    parts.push('COMMIT;', 'SELECT s, t, @@auto_increment_increment AS step;', 'END');
    const [row] = await db.script<{ s: number; t: number; step: number }>(parts.join('\n'), values);
    const step = Number(row?.step ?? 1);
    return { sessions: this.ids(Number(row?.s ?? 0), batch.sessions.length, step), statistics: this.ids(Number(row?.t ?? 0), batch.statistics.length, step) };
  }

  /** Last activity of every touched session; last URL and bounce for those that got a pageview; the first goal where one was reached. */
  private updateSessions(touched: SessionTouch[]): Statement | null {
    if (touched.length === 0) return null;
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
    return { sql: `UPDATE ${this.sessions} SET ${sets.join(', ')} WHERE ID IN (${marks(touched.length, '?')})`, values };
  }

  /** Heartbeats: seconds added to the time on page of their pageviews. */
  private addTimeOnPage(updates: Array<{ id: number; seconds: number }>): Statement | null {
    const counted = updates.filter((u) => u.seconds > 0);
    if (counted.length === 0) return null;
    return {
      sql: `UPDATE ${this.statistics} SET time_on_page = time_on_page + CASE ID ${marks(counted.length, 'WHEN ? THEN ?', ' ')} ELSE 0 END WHERE ID IN (${marks(counted.length, '?')})`,
      values: [...counted.flatMap((u) => [u.id, u.seconds]), ...counted.map((u) => u.id)],
    };
  }

  /** Goal completions, [statistic id, goal id]; a pair already stored is skipped. */
  private insertGoals(pairs: Array<[number, number]>): Statement | null {
    if (pairs.length === 0) return null;
    return { sql: `${this.engine.insertIgnore} INTO ${this.goalStatistics} (statistic_id, goal_id) VALUES ${marks(pairs.length, '(?, ?)')}`, values: pairs.flat() };
  }
}
