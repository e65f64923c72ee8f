import type { Database } from '../../db/database';
import { SvcError } from '../../errors';
import type { SvcLogger } from '../../logger';
import type { Frag } from './fragment';

type Flavor = 'sqlite' | 'mariadb' | 'mysql';

/** MariaDB ER_STATEMENT_TIMEOUT and MySQL ER_QUERY_TIMEOUT. */
const TIMEOUT_ERRNOS = new Set([1969, 3024]);

function errnoOf(err: unknown): number | undefined {
  const e = err as { original?: { errno?: number }; parent?: { errno?: number }; errno?: number };
  return e.original?.errno ?? e.parent?.errno ?? e.errno;
}

/**
 * Runs the engine's SELECTs under a statement time limit the server enforces:
 * `SET STATEMENT max_statement_time=… FOR` on MariaDB, the
 * `MAX_EXECUTION_TIME` hint on MySQL. SQLite has no such limit; its queries
 * run in-process on the embedded database. A query stopped by the limit
 * answers 503 `svc_statistics_timeout`.
 */
export class QueryRunner {
  private flavor: Promise<Flavor> | null = null;

  constructor(
    private readonly db: Database,
    private readonly logger: SvcLogger,
    readonly timeoutMs: number,
  ) {}

  async select<T = Record<string, unknown>>(queryId: string, query: Frag, timeoutMs = this.timeoutMs): Promise<T[]> {
    const sql = this.limited(await this.detect(), query.sql, timeoutMs);
    const started = performance.now();
    try {
      return await this.db.select<T>(sql, query.params);
    } catch (err) {
      if (TIMEOUT_ERRNOS.has(errnoOf(err) ?? 0)) {
        this.logger.warn({ queryId, timeoutMs }, `statistics query ${queryId} stopped by the time limit`);
        throw new SvcError(
          'svc_statistics_timeout',
          `The statistics query took longer than ${timeoutMs / 1000} s and was stopped. Choose a shorter date range or fewer filters.`,
          503,
          { query_id: queryId },
        );
      }
      throw err;
    } finally {
      this.logger.debug({ queryId, ms: Math.round(performance.now() - started) }, 'statistics query');
    }
  }

  private limited(flavor: Flavor, sql: string, timeoutMs: number): string {
    if (flavor === 'mariadb') return `SET STATEMENT max_statement_time=${(timeoutMs / 1000).toFixed(3)} FOR ${sql}`;
    if (flavor === 'mysql') return sql.replace(/^SELECT\b/, `SELECT /*+ MAX_EXECUTION_TIME(${Math.ceil(timeoutMs)}) */`);
    return sql;
  }

  private detect(): Promise<Flavor> {
    if (this.db.dialect === 'sqlite') return Promise.resolve('sqlite');
    this.flavor ??= this.db
      .select<{ v: string }>('SELECT VERSION() AS v')
      .then(([row]) => (String(row?.v ?? '').toLowerCase().includes('mariadb') ? 'mariadb' : 'mysql'));
    return this.flavor;
  }
}
