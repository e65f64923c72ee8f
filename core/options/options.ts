import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { insertIfAbsent, upsert } from '../db/sql';

export interface SetOptionOptions {
  /** Autoloaded options are served from memory; the rest are read on demand. */
  autoload?: boolean;
}

/**
 * Site options (`svc_options`), JSON-encoded. Autoloaded values are kept in
 * memory and reloaded in one query when older than `ttlMs`, so other app nodes'
 * changes show up within that time and reads on the hit path cost nothing.
 */
export class Options {
  private autoloaded: Map<string, unknown> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, unknown>> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlMs = 5_000,
  ) {}

  async get<T>(name: string, fallback: T): Promise<T>;
  async get<T = unknown>(name: string): Promise<T | undefined>;
  async get<T>(name: string, fallback?: T): Promise<T | undefined> {
    const cache = await this.autoloadedValues();
    if (cache.has(name)) return cache.get(name) as T;
    const rows = await this.db.select<{ option_value: string; autoload: number | boolean }>(
      `SELECT option_value, autoload FROM ${this.db.quote(this.db.table('options'))} WHERE option_name = ?`,
      [name],
    );
    if (rows.length === 0) return fallback;
    return JSON.parse(rows[0]!.option_value) as T;
  }

  async set(name: string, value: unknown, { autoload = true }: SetOptionOptions = {}): Promise<void> {
    if (value === undefined) throw new TypeError(`option ${name}: undefined is not storable; use delete()`);
    await upsert(
      this.db,
      this.db.table('options'),
      { option_name: name, option_value: JSON.stringify(value), autoload, updated_at: this.clock.unix() },
      ['option_name'],
      ['option_value', 'autoload', 'updated_at'],
    );
    this.invalidate();
  }

  /** Stores the value only when the option does not exist yet; true when it was stored. */
  async add(name: string, value: unknown, { autoload = true }: SetOptionOptions = {}): Promise<boolean> {
    const added = await insertIfAbsent(this.db, this.db.table('options'), {
      option_name: name,
      option_value: JSON.stringify(value),
      autoload,
      updated_at: this.clock.unix(),
    });
    if (added) this.invalidate();
    return added;
  }

  async delete(name: string): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('options'))} WHERE option_name = ?`, [name]);
    this.invalidate();
  }

  /** Drops the in-memory copy; the next read reloads it. */
  invalidate(): void {
    this.autoloaded = null;
  }

  private async autoloadedValues(): Promise<Map<string, unknown>> {
    if (this.autoloaded && this.clock.ms() - this.loadedAt < this.ttlMs) return this.autoloaded;
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load(): Promise<Map<string, unknown>> {
    const rows = await this.db.select<{ option_name: string; option_value: string }>(
      `SELECT option_name, option_value FROM ${this.db.quote(this.db.table('options'))} WHERE autoload = ?`,
      [true],
    );
    const map = new Map(rows.map((r) => [r.option_name, JSON.parse(r.option_value) as unknown]));
    this.autoloaded = map;
    this.loadedAt = this.clock.ms();
    return map;
  }
}
