/**
 * Runs work for the same key one after another (the hits of one visitor on
 * this node), and work for different keys concurrently.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Starts `work` (an async function) at once when nothing runs for `key`, else after the work before it settles. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(work, work) : work();
    const release = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    const tail: Promise<unknown> = result.then(release, release);
    this.tails.set(key, tail);
    return result;
  }
}
