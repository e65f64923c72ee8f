import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { insertIfAbsent, upsert } from '../db/sql';

export interface SetOptionOptions {
  /** Autoloaded options are served from memory; the rest are read on demand. */
  autoload?: boolean;
}

/** The autoloaded options in memory at one moment; a new version whenever they were loaded again. */
export interface OptionSnapshot {
  readonly version: number;
  readonly values: ReadonlyMap<string, unknown>;
}

/**
 * Site options (`svc_options`), JSON-encoded. Autoloaded values are kept in
 * memory and reloaded in one query when older than `ttlMs`, so other app nodes'
 * changes show up within that time and reads on the hit path cost nothing.
 */
export class Options {
  private autoloaded: OptionSnapshot | null = null;
  private loadedAt = 0;
  private loads = 0;
  /** Counts changes on this node, so a load that began before one does not keep its older values. */
  private changes = 0;
  private loading: Promise<OptionSnapshot> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlMs = 5_000,
  ) {}

  async get<T>(name: string, fallback: T): Promise<T>;
  async get<T = unknown>(name: string): Promise<T | undefined>;
  async get<T>(name: string, fallback?: T): Promise<T | undefined> {
    const { values } = await this.loaded();
    if (values.has(name)) return values.get(name) as T;
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

  /**
   * Replaces the value only when the option still holds `expected` (as read
   * with `get`): of several nodes replacing the same value, one wins. True
   * when this call's value was stored.
   */
  async compareAndSet(name: string, expected: unknown, value: unknown): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE ${this.db.quote(this.db.table('options'))} SET option_value = ?, updated_at = ? WHERE option_name = ? AND option_value = ?`,
      [JSON.stringify(value), this.clock.unix(), name, JSON.stringify(expected)],
    );
    if (changed > 0) this.invalidate();
    return changed > 0;
  }

  async delete(name: string): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('options'))} WHERE option_name = ?`, [name]);
    this.invalidate();
  }

  /** Drops the in-memory copy; the next read reloads it. */
  invalidate(): void {
    this.autoloaded = null;
    this.loading = null;
    this.changes++;
  }

  /** The autoloaded options, loaded again first when older than the TTL or changed on this node. */
  async loaded(): Promise<OptionSnapshot> {
    if (this.autoloaded && this.clock.ms() - this.loadedAt < this.ttlMs) return this.autoloaded;
    return this.reload();
  }

  /**
   * The autoloaded options in memory, without waiting: for a hot path that
   * reads several of them per call. When they are older than the TTL they are
   * loaded again in the background and this call still gives the old ones;
   * after a change on this node it gives null until `loaded()` has run.
   */
  snapshot(): OptionSnapshot | null {
    if (this.autoloaded && this.clock.ms() - this.loadedAt >= this.ttlMs) this.reload().catch(() => undefined);
    return this.autoloaded;
  }

  private reload(): Promise<OptionSnapshot> {
    if (this.loading) return this.loading;
    const loading = this.load().finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    return loading;
  }

  private async load(): Promise<OptionSnapshot> {
    const changes = this.changes;
    const rows = await this.db.select<{ option_name: string; option_value: string }>(
      `SELECT option_name, option_value FROM ${this.db.quote(this.db.table('options'))} WHERE autoload = ?`,
      [true],
    );
    const snapshot: OptionSnapshot = { version: ++this.loads, values: new Map(rows.map((r) => [r.option_name, JSON.parse(r.option_value) as unknown])) };
    if (changes === this.changes) {
      this.autoloaded = snapshot;
      this.loadedAt = this.clock.ms();
    }
    return snapshot;
  }
}
