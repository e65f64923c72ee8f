/**
 * A value now, or later when it had to wait. Hot paths (the tracking
 * pipeline, the hooks it fires) answer with the value itself when nothing
 * waited, so a hit whose settings, sites and lookups are in memory makes no
 * promise until it reaches the database (docs/adr/0006-soon-values.md).
 */
export type Soon<T> = T | Promise<T>;

/** Whether a value still has to be waited for (a promise or another thenable). */
export function isPending<T>(value: Soon<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `fn` of the value, at once when it is ready. */
export function soonThen<T, U>(value: Soon<T>, fn: (ready: T) => Soon<U>): Soon<U> {
  return isPending(value) ? value.then(fn) : fn(value);
}

/**
 * Steps written as a generator that yields each Soon value it needs and
 * gets the value back: `const site = (yield sites.of(host)) as number`.
 * (A typed `yield* wait(soon)` would allocate a generator per step.)
 */
export type SoonSteps<T> = Generator<unknown, T, unknown>;

/** Runs the rest of `steps` once `pending` settles, and each later pending value in turn. */
function resume<T>(steps: SoonSteps<T>, pending: PromiseLike<unknown>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const advance = (next: () => IteratorResult<unknown, T>) => {
      try {
        let step = next();
        while (!step.done) {
          if (isPending(step.value)) return void step.value.then(onValue, onError);
          step = steps.next(step.value);
        }
        resolve(step.value);
      } catch (err) {
        reject(err);
      }
    };
    const onValue = (value: unknown) => advance(() => steps.next(value));
    const onError = (err: unknown) => advance(() => steps.throw(err));
    pending.then(onValue, onError);
  });
}

/**
 * Runs steps synchronously for as long as every value they wait for is
 * ready, and asynchronously from the first pending one: the result is the
 * value, or a promise of it. A step that throws before anything waited
 * throws here.
 */
export function runSoon<T>(steps: SoonSteps<T>): Soon<T> {
  let step = steps.next();
  while (!step.done) {
    if (isPending(step.value)) return resume(steps, step.value);
    step = steps.next(step.value);
  }
  return step.value;
}
