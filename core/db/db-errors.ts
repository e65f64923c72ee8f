/**
 * What a MariaDB/MySQL failure means for the work that met it:
 * - `conflict`: the transaction lost a deadlock or, on Galera, a certification
 *   conflict; the server rolled it back, so running it again is safe.
 * - `gone`: the server went away or cannot serve (shut down, left the
 *   cluster, refused the connection); another server of the list may.
 * - `other`: anything else, the caller's to handle.
 */
export type DbErrorKind = 'conflict' | 'gone' | 'other';

/** Deadlock (also Galera's certification failure) and MariaDB's snapshot-isolation conflict. */
const CONFLICT = new Set([1213, 1020]);
/**
 * Server errors that say this server cannot serve now: WSREP not ready (1047),
 * shutdown in progress (1053), connection killed (1927), too many connections
 * (1040), server gone or lost (2006, 2013).
 */
const GONE_ERRNO = new Set([1047, 1053, 1927, 1040, 2006, 2013]);
const GONE_CODE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'ESOCKET',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
]);

interface DriverError {
  errno?: unknown;
  code?: unknown;
  fatal?: unknown;
  parent?: unknown;
  original?: unknown;
}

/** The driver's own error under sequelize's wrappers. */
function driverError(err: unknown): DriverError {
  let current = (err ?? {}) as DriverError;
  for (let depth = 0; depth < 3; depth++) {
    const inner = (current.original ?? current.parent) as DriverError | undefined;
    if (!inner || inner === current) break;
    current = inner;
  }
  return current;
}

export function dbErrorKind(err: unknown): DbErrorKind {
  const { errno, code, fatal } = driverError(err);
  if (typeof errno === 'number' && CONFLICT.has(errno)) return 'conflict';
  if (typeof errno === 'number' && GONE_ERRNO.has(errno)) return 'gone';
  if (typeof code === 'string' && GONE_CODE.has(code)) return 'gone';
  // mysql2 marks errors that closed the connection as fatal.
  if (fatal === true) return 'gone';
  return 'other';
}
