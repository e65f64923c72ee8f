import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves with `work`'s value, or fails naming `what` once `ms` milliseconds pass first: a bounded wait. */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads until `done` holds and returns that value; throws with the last value
 * after `ms`. For what arrives asynchronously (hits, other processes, timers).
 */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, { ms = 10_000, every = 50 } = {}): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting after ${ms} ms; last value: ${JSON.stringify(value)?.slice(0, 500)}`);
    await sleep(every);
  }
}

/** Resolves once `check` holds; throws after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  await until(check, (held) => held, { ms });
}
