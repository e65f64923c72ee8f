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
  siteId: number | null;
  reason: RecentDrop['reason'];
  time: number;
  url: string;
  count: number;
}

/** Rows are coalesced per site and reason. */
const keyOf = (siteId: number | null, reason: string) => `${siteId ?? ''} ${reason}`;

/**
 * Recent hits that arrived but were not counted, and why, so a site owner
 * whose dashboard stays empty can see what happens to the hits. Each row
 * belongs to the hit's site, or to none (`unknown site`). Writes are
 * coalesced per site and reason: a flood of bots costs a row every few
 * seconds, not a row per hit, and the hot path never waits for the database.
 */
export class DropLog {
  private readonly pending = new Map<string, Pending>();
  private readonly lastWrite = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: SvcLogger,
  ) {}

  private get table(): string {
    return this.db.quote(this.db.table('tracking_drops'));
  }

  note(reason: DropOutcome, url: string, siteId: number | null): void {
    if (reason === '') return;
    const now = this.clock.unix();
    const key = keyOf(siteId, reason);
    const entry = this.pending.get(key);
    this.pending.set(key, { siteId, reason, time: now, url: url.slice(0, 255), count: (entry?.count ?? 0) + 1 });
    const wait = (this.lastWrite.get(key) ?? -Infinity) + COALESCE_SECONDS - now;
    if (wait <= 0) this.flush(key);
    else if (!this.timers.has(key)) {
      const timer = setTimeout(() => this.flush(key), wait * 1000);
      timer.unref();
      this.timers.set(key, timer);
    }
  }

  /** The site's newest rows, newest first; with `unclaimed`, also those of hits of no known site. */
  async recent(siteId: number, limit: number, unclaimed: boolean): Promise<RecentDrop[]> {
    const rows = await this.db.select<RecentDrop>(
      `SELECT time, reason, page_url, count FROM ${this.table} WHERE site_id = ?${unclaimed ? ' OR site_id IS NULL' : ''} ORDER BY ID DESC LIMIT ${Math.trunc(limit)}`,
      [siteId],
    );
    return rows.map((r) => ({ time: Number(r.time), reason: r.reason, page_url: r.page_url, count: Number(r.count) }));
  }

  purge(): Promise<number> {
    return this.db.execute(`DELETE FROM ${this.table} WHERE time < ?`, [this.clock.unix() - KEEP_SECONDS]);
  }

  /** Writes what is pending and waits for every write under way (the kernel calls it before closing the database). */
  async settled(): Promise<void> {
    for (const key of [...this.pending.keys()]) this.flush(key);
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private flush(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    const entry = this.pending.get(key);
    if (!entry) return;
    this.pending.delete(key);
    this.lastWrite.set(key, entry.time);
    const { reason } = entry;
    const write = this.db
      .insert(`INSERT INTO ${this.table} (site_id, time, reason, page_url, count) VALUES (?, ?, ?, ?, ?)`, [entry.siteId, entry.time, reason, entry.url, entry.count])
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, reason }, 'a dropped hit could not be noted'),
      )
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }
}
