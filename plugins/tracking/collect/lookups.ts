import { LRUCache } from 'lru-cache';
import { type Database, insertIfAbsent, type ObjectCache } from '../../../core';

export const LOOKUP_ITEMS = ['browsers', 'browser_versions', 'platforms', 'devices', 'platform_versions'] as const;
export type LookupItem = (typeof LOOKUP_ITEMS)[number];

/** Names per lookup table kept in memory; beyond that the least recently used are read again. */
const MAX_NAMES = 2_000;

/**
 * Ids of the user-agent lookup tables (tracking.md §2.3): filled on first sight
 * of a name and cached in the object cache group `svc` under `svc_{item}_all`.
 * Ids never change once given, so every app node may cache them for good; the
 * junk cleanup flushes the key after deleting rows.
 */
export class LookupIds {
  private readonly inflight = new Map<string, Promise<number>>();

  constructor(
    private readonly db: Database,
    private readonly cache: ObjectCache,
  ) {}

  static cacheKey(item: LookupItem): string {
    return `svc_${item}_all`;
  }

  /** The id of `name` in `item` when it is in memory (0 for an empty name); undefined when `id()` must read or store it. */
  known(item: LookupItem, name: string): number | undefined {
    return name === '' ? 0 : this.names(item).get(name);
  }

  /** The id of `name` in `item` (0 for an empty name), inserting the row on first sight. */
  async id(item: LookupItem, name: string): Promise<number> {
    if (name === '') return 0;
    const names = this.names(item);
    const cached = names.get(name);
    if (cached !== undefined) return cached;
    const key = `${item}\u0000${name}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetch(item, name)
        .then((id) => {
          names.set(name, id);
          return id;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private names(item: LookupItem): LRUCache<string, number> {
    const key = LookupIds.cacheKey(item);
    let names = this.cache.get<LRUCache<string, number>>(key, 'svc');
    if (!names) {
      names = new LRUCache<string, number>({ max: MAX_NAMES });
      this.cache.set(key, names, 'svc');
    }
    return names;
  }

  private async fetch(item: LookupItem, name: string): Promise<number> {
    const table = this.db.table(item);
    const find = async () =>
      (await this.db.select<{ ID: number }>(`SELECT ID FROM ${this.db.quote(table)} WHERE name = ?`, [name]))[0];
    const found = (await find()) ?? ((await insertIfAbsent(this.db, table, { name })), await find());
    if (!found) throw new Error(`lookup ${item} ${name} could not be stored`);
    return Number(found.ID);
  }
}
