import { RateLimiterMySQL, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from './database';

export { RateLimiterRes };

export interface RateLimitOptions {
  /** Distinguishes limiters sharing the table. */
  keyPrefix: string;
  points: number;
  /** Window length in seconds. */
  duration: number;
  /** Seconds a key stays blocked once it ran out of points (0: until the window ends). */
  blockDuration?: number;
}

/**
 * Counters kept in `{prefix}svc_rate_limits`, so every app node draws from the
 * same budget. The library owns the table layout of each dialect.
 */
export async function createRateLimiter(db: Database, options: RateLimitOptions): Promise<RateLimiterAbstract> {
  const tableName = db.table('rate_limits');
  return new Promise((resolve, reject) => {
    let limiter: RateLimiterAbstract;
    const ready = (err?: unknown) => (err ? reject(err) : resolve(limiter));
    if (db.dialect === 'mysql') {
      limiter = new RateLimiterMySQL(
        {
          ...options,
          storeClient: db.sequelize,
          storeType: 'sequelize',
          dbName: db.sequelize.getDatabaseName(),
          tableName,
          clearExpiredByTimeout: false,
        },
        ready,
      );
    } else {
      const manager = db.sequelize.connectionManager as unknown as { getConnection(): Promise<unknown> };
      manager.getConnection().then((connection) => {
        limiter = new RateLimiterSQLite(
          { ...options, storeClient: connection, storeType: 'sqlite3', tableName, clearExpiredByTimeout: false },
          ready,
        );
      }, reject);
    }
  });
}

/** Deletes counters whose window ended before `nowMs`; the daily maintenance runs it. */
export function purgeExpiredRateLimits(db: Database, nowMs: number): Promise<number> {
  return db.execute(`DELETE FROM ${db.quote(db.table('rate_limits'))} WHERE expire IS NOT NULL AND expire < ?`, [nowMs]);
}
