import { setTimeout as sleep } from 'node:timers/promises';
import { SvcError, describeError, isSvcError } from '../errors';
import { dbErrorKind } from './db-errors';

/** Tries of one transaction or statement before its error stands. */
export const ATTEMPTS = 8;
const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 500;

/** Exponential backoff with full jitter, so two nodes that collided do not collide again in step. */
function backoff(attempt: number): number {
  return Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
}

const commitUnknown = (err: unknown) =>
  new SvcError(
    'SVC_ERR_DB_COMMIT_UNKNOWN',
    `the database server went away while committing, so whether the change was saved is unknown: ${describeError(err)}`,
    503,
  );

/** True for the error a transaction ends with when its COMMIT was sent and the answer was lost. */
export const isCommitUnknown = (err: unknown): boolean => isSvcError(err) && err.code === 'SVC_ERR_DB_COMMIT_UNKNOWN';

/**
 * Runs one whole transaction, again from the start when it lost a deadlock
 * or a Galera certification conflict (the server rolled it back) or when its
 * server went away before the COMMIT (nothing of it was saved; the pool then
 * connects to the next server of the list). `run` calls `committing()` just
 * before it commits: a server lost after that leaves the outcome unknown, so
 * the transaction is not run again and `SVC_ERR_DB_COMMIT_UNKNOWN` (503) is thrown.
 */
export async function retryTransaction<T>(run: (committing: () => void) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let committed = false;
    try {
      return await run(() => (committed = true));
    } catch (err) {
      const kind = dbErrorKind(err);
      if (kind === 'gone' && committed) throw commitUnknown(err);
      if (kind === 'other' || attempt >= ATTEMPTS) throw err;
      await sleep(backoff(attempt));
    }
  }
}

/**
 * Runs one statement outside a transaction, again when it lost a conflict
 * (rolled back, so nothing happened); a read also when its server went away.
 * A write whose server went away may have been applied and is not repeated.
 */
export async function retryStatement<T>(run: () => Promise<T>, { read }: { read: boolean }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const kind = dbErrorKind(err);
      const again = kind === 'conflict' || (read && kind === 'gone');
      if (!again || attempt >= ATTEMPTS) throw err;
      await sleep(backoff(attempt));
    }
  }
}
