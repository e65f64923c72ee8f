import type { Soon } from '../../../core';

/**
 * Lets work for the same key run one after another (the hits of one visitor
 * on this node) and work for different keys concurrently. The usual key is
 * free: it is taken at once, without a promise.
 */
export class KeyedLock {
  /** Keys held, each with the turns waiting for it in order. */
  private readonly waiting = new Map<string, Array<() => void>>();

  /** Takes `key` (at once when it is free, else when the holders before have released it); call the release function exactly once. */
  acquire(key: string): Soon<() => void> {
    const queue = this.waiting.get(key);
    const release = () => this.release(key);
    if (!queue) {
      this.waiting.set(key, []);
      return release;
    }
    return new Promise((resolve) => queue.push(() => resolve(release)));
  }

  private release(key: string): void {
    const queue = this.waiting.get(key);
    const next = queue?.shift();
    if (next) next();
    else this.waiting.delete(key);
  }
}
