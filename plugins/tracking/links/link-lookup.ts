import { LRUCache } from 'lru-cache';
import type { Database, Options } from '../../../core';

/** Autoloaded counter the scraper bumps after adding links, so every node forgets its misses within seconds. */
export const LINKS_VERSION_OPTION = 'svc_external_links_version';

/**
 * Ids of outbound URLs in the external-links lookup, by normalised URL. Hits
 * and misses are cached (bounded); the cache is dropped when the lookup
 * changes. The tracker never inserts lookup rows.
 */
export class LinkLookup {
  private readonly cache = new LRUCache<string, number>({ max: 10_000 });
  private version = -1;

  constructor(
    private readonly db: Database,
    private readonly options: Options,
  ) {}

  async init(): Promise<void> {
    await this.options.add(LINKS_VERSION_OPTION, 1, { autoload: true });
  }

  /** The link id, or 0 when the URL is not in the lookup. */
  async idOf(normalised: string): Promise<number> {
    const version = await this.options.get<number>(LINKS_VERSION_OPTION, 0);
    if (version !== this.version) {
      this.cache.clear();
      this.version = version;
    }
    const cached = this.cache.get(normalised);
    if (cached !== undefined) return cached;
    const [row] = await this.db.select<{ ID: number }>(`SELECT ID FROM ${this.db.quote(this.db.table('external_links'))} WHERE url = ?`, [normalised]);
    const id = row ? Number(row.ID) : 0;
    this.cache.set(normalised, id);
    return id;
  }

  async changed(): Promise<void> {
    await this.options.set(LINKS_VERSION_OPTION, (await this.options.get<number>(LINKS_VERSION_OPTION, 0)) + 1, { autoload: true });
  }
}
