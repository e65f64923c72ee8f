import { LRUCache } from 'lru-cache';

export interface ObjectCacheOptions {
  /** Entries kept per group before the least recently used are dropped. */
  maxPerGroup?: number;
}

/**
 * In-process cache with groups, bounded per group. Each app node has its own;
 * store here only what every node can rebuild (lookup ids, parsed settings).
 */
export class ObjectCache {
  private readonly groups = new Map<string, LRUCache<string, { v: unknown }>>();
  private readonly maxPerGroup: number;

  constructor(options: ObjectCacheOptions = {}) {
    this.maxPerGroup = options.maxPerGroup ?? 10_000;
  }

  get<T>(key: string, group = 'default'): T | undefined {
    return this.groups.get(group)?.get(key)?.v as T | undefined;
  }

  has(key: string, group = 'default'): boolean {
    return this.groups.get(group)?.has(key) ?? false;
  }

  /** `ttlSeconds` 0 keeps the entry until evicted or deleted. */
  set(key: string, value: unknown, group = 'default', ttlSeconds = 0): void {
    this.group(group).set(key, { v: value }, ttlSeconds > 0 ? { ttl: ttlSeconds * 1000 } : undefined);
  }

  delete(key: string, group = 'default'): void {
    this.groups.get(group)?.delete(key);
  }

  flushGroup(group: string): void {
    this.groups.get(group)?.clear();
  }

  flush(): void {
    this.groups.clear();
  }

  /** Returns the cached value or computes, stores and returns it. */
  async remember<T>(key: string, group: string, compute: () => Promise<T>, ttlSeconds = 0): Promise<T> {
    const hit = this.groups.get(group)?.get(key);
    if (hit) return hit.v as T;
    const value = await compute();
    this.set(key, value, group, ttlSeconds);
    return value;
  }

  private group(name: string): LRUCache<string, { v: unknown }> {
    let g = this.groups.get(name);
    if (!g) {
      g = new LRUCache({ max: this.maxPerGroup, ttlAutopurge: false, allowStale: false });
      this.groups.set(name, g);
    }
    return g;
  }
}
