import type { Clock, Database, SvcLogger } from '../../../core';
import type { DropOutcome } from './exclusions';

/** A node writes at most one row per reason this often; the hits in between are counted into it. */
const COALESCE_SECONDS = 10;
/** Rows older than this are deleted by the daily job. */
const KEEP_SECONDS = 7 * 86_400;

export interface RecentDrop {
  time: number;
  reason: Exclude<DropOutcome, ''>;
  page_url: string;
  /** Hits of this reason the row stands for. */
  count: number;
}

interface Pending {
  time: number;
  url: string;
  count: number;
}

/**
 * Recent hits that arrived but were not counted, and why, so a site owner
 * whose dashboard stays empty can see what happens to the hits. Writes are
 * coalesced per reason: a flood of bots costs a row every few seconds, not a
 * row per hit, and the hot path never waits for the database.
 */
export class DropLog {
  private readonly pending = new Map<RecentDrop['reason'], Pending>();
  private readonly lastWrite = new Map<RecentDrop['reason'], number>();
  private readonly timers = new Map<RecentDrop['reason'], NodeJS.Timeout>();
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: SvcLogger,
  ) {}

  private get table(): string {
    return this.db.quote(this.db.table('tracking_drops'));
  }

  note(reason: DropOutcome, url: string): void {
    if (reason === '') return;
    const now = this.clock.unix();
    const entry = this.pending.get(reason) ?? { time: now, url: '', count: 0 };
    this.pending.set(reason, { time: now, url: url.slice(0, 255), count: entry.count + 1 });
    const wait = (this.lastWrite.get(reason) ?? -Infinity) + COALESCE_SECONDS - now;
    if (wait <= 0) this.flush(reason);
    else if (!this.timers.has(reason)) {
      const timer = setTimeout(() => this.flush(reason), wait * 1000);
      timer.unref();
      this.timers.set(reason, timer);
    }
  }

  /** The newest rows, newest first. */
  async recent(limit: number): Promise<RecentDrop[]> {
    const rows = await this.db.select<RecentDrop>(`SELECT time, reason, page_url, count FROM ${this.table} ORDER BY ID DESC LIMIT ${Math.trunc(limit)}`);
    return rows.map((r) => ({ time: Number(r.time), reason: r.reason, page_url: r.page_url, count: Number(r.count) }));
  }

  purge(): Promise<number> {
    return this.db.execute(`DELETE FROM ${this.table} WHERE time < ?`, [this.clock.unix() - KEEP_SECONDS]);
  }

  /** Writes what is pending and waits for every write under way (the kernel calls it before closing the database). */
  async settled(): Promise<void> {
    for (const reason of [...this.pending.keys()]) this.flush(reason);
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private flush(reason: RecentDrop['reason']): void {
    clearTimeout(this.timers.get(reason));
    this.timers.delete(reason);
    const entry = this.pending.get(reason);
    if (!entry) return;
    this.pending.delete(reason);
    this.lastWrite.set(reason, entry.time);
    const write = this.db
      .insert(`INSERT INTO ${this.table} (time, reason, page_url, count) VALUES (?, ?, ?, ?)`, [entry.time, reason, entry.url, entry.count])
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, reason }, 'a dropped hit could not be noted'),
      )
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }
}
