import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import type { Database } from './database';

/** One budget: at most `max` hits per key in each window of `window` seconds (windows aligned to the clock). */
export interface RateLimit {
  /** Distinguishes budgets sharing the table, e.g. `login`. */
  name: string;
  max: number;
  window: number;
}

/** A key's count in the current window, this hit included. */
export interface RateCount {
  hits: number;
  /** Whether this hit is within the budget (`hits <= max`). */
  allowed: boolean;
  /** Seconds until the window ends and the count starts again. */
  retryAfter: number;
}

type Row = { hits: number | string };

/**
 * The single statement that counts one hit and gives back the new count, per
 * dialect. SQLite answers it with RETURNING on the shared connection, with no
 * transaction; MySQL upserts and reads inside one short transaction of its
 * own pooled connection, where the row lock orders concurrent hits.
 */
const COUNT_HIT: Record<Database['dialect'], (db: Database, t: string, args: unknown[]) => Promise<number>> = {
  async sqlite(db, t, args) {
    // Written as WITH … INSERT: sequelize reads no rows back from a statement that begins with INSERT.
    const [row] = await db.select<Row>(
      `WITH hit (bucket, window_start, expires) AS (VALUES (?, ?, ?))
       INSERT INTO ${t} (bucket, window_start, hits, expires) SELECT bucket, window_start, 1, expires FROM hit WHERE true
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + 1 RETURNING hits`,
      args,
    );
    return Number(row?.hits ?? 0);
  },
  mysql: (db, t, args) =>
    db.transaction(async (tx) => {
      await db.execute(`INSERT INTO ${t} (bucket, window_start, hits, expires) VALUES (?, ?, 1, ?) ON DUPLICATE KEY UPDATE hits = hits + 1`, args, tx);
      const [row] = await db.select<Row>(`SELECT hits FROM ${t} WHERE bucket = ? AND window_start = ?`, args.slice(0, 2), tx);
      return Number(row?.hits ?? 0);
    }),
};

/**
 * Counters in `{prefix}svc_rate_limits`, shared by every app node. A hit is
 * counted before it is judged (consume, then check), in one atomic step, so
 * no number of concurrent requests gets past the budget.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('rate_limits'));
  }

  /** Counts one hit against `key` in `limit` and says whether it is within the budget. */
  async hit(limit: RateLimit, key: string): Promise<RateCount> {
    const { bucket, start, end } = this.slot(limit, key);
    const hits = await COUNT_HIT[this.db.dialect](this.db, this.t, [bucket, start, end]);
    return { hits, allowed: hits <= limit.max, retryAfter: Math.max(1, end - this.clock.unix()) };
  }

  /** Takes back one hit of the current window (a success that should not use up the budget). */
  async giveBack(limit: RateLimit, key: string): Promise<void> {
    const { bucket, start } = this.slot(limit, key);
    await this.db.execute(`UPDATE ${this.t} SET hits = hits - 1 WHERE bucket = ? AND window_start = ? AND hits > 0`, [bucket, start]);
  }

  /** Forgets the current window's count of `key`. */
  async reset(limit: RateLimit, key: string): Promise<void> {
    const { bucket, start } = this.slot(limit, key);
    await this.db.execute(`DELETE FROM ${this.t} WHERE bucket = ? AND window_start = ?`, [bucket, start]);
  }

  private slot(limit: RateLimit, key: string): { bucket: string; start: number; end: number } {
    const start = Math.floor(this.clock.unix() / limit.window) * limit.window;
    const plain = `${limit.name}:${key}`;
    // Keys come from requests (logins, addresses): long ones, or ones with control characters, are hashed.
    const bucket = plain.length <= 191 && !/\p{Cc}/u.test(plain) ? plain : `${limit.name}:#${createHash('sha256').update(key).digest('hex')}`;
    return { bucket, start, end: start + limit.window };
  }
}

/** Deletes counters whose window ended before `nowUnix`; the daily maintenance runs it. */
export function purgeExpiredRateLimits(db: Database, nowUnix: number): Promise<number> {
  return db.execute(`DELETE FROM ${db.quote(db.table('rate_limits'))} WHERE expires < ?`, [nowUnix]);
}
