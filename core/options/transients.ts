import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { upsert } from '../db/sql';

/** Values with an expiry (`svc_transients`), shared by every app node. */
export class Transients {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async get<T = unknown>(name: string): Promise<T | undefined> {
    const rows = await this.db.select<{ value: string; expires_at: number }>(
      `SELECT value, expires_at FROM ${this.db.quote(this.db.table('transients'))} WHERE name = ?`,
      [name],
    );
    const row = rows[0];
    if (!row) return undefined;
    if (Number(row.expires_at) !== 0 && Number(row.expires_at) <= this.clock.unix()) {
      await this.delete(name);
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  /** Stores `value` for `ttlSeconds` (0 keeps it until deleted). */
  async set(name: string, value: unknown, ttlSeconds = 0): Promise<void> {
    if (!Number.isFinite(ttlSeconds) || ttlSeconds < 0) throw new RangeError('ttlSeconds must be 0 or more');
    await upsert(
      this.db,
      this.db.table('transients'),
      { name, value: JSON.stringify(value), expires_at: ttlSeconds === 0 ? 0 : this.clock.unix() + Math.ceil(ttlSeconds) },
      ['name'],
      ['value', 'expires_at'],
    );
  }

  async delete(name: string): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('transients'))} WHERE name = ?`, [name]);
  }

  /** Removes every expired transient; run by the daily maintenance. */
  async purgeExpired(): Promise<number> {
    return this.db.execute(
      `DELETE FROM ${this.db.quote(this.db.table('transients'))} WHERE expires_at <> 0 AND expires_at <= ?`,
      [this.clock.unix()],
    );
  }
}
