import { describeError, type SvcLogger } from '../../core';

/** How often a node looks at the option again; the options' own reload time (5 s) adds to it for changes made on other nodes. */
const FOLLOW_INTERVAL_MS = 1_000;

/**
 * Keeps `apply(on)` in step with a flag read from the options: read once now,
 * then every `FOLLOW_INTERVAL_MS`, calling `apply` only when the value changed.
 * A change saved on any app node thus takes effect on every node within
 * seconds, without a restart. Returns the function that stops following.
 */
export async function followFlag(read: () => Promise<boolean>, apply: (on: boolean) => void, logger: SvcLogger): Promise<() => void> {
  let current: boolean | null = null;
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      const on = await read();
      if (on !== current) {
        current = on;
        apply(on);
      }
    } finally {
      busy = false;
    }
  };
  await check();
  const timer = setInterval(() => {
    check().catch((err: unknown) => logger.warn({ err }, `could not read the option: ${describeError(err)}`));
  }, FOLLOW_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
