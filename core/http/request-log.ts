import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SvcLogger } from '../logger';
import { logUrl } from './log-url';

/** A request being answered, as the request log names it. */
export interface LoggedRequest {
  id: string;
  started: number;
}

/** Request ids are this process's random prefix and a counter: unique across nodes and restarts without a random draw per request. */
const PROCESS_ID = randomBytes(6).toString('hex');
let served = 0;

/**
 * Names the request (`X-Request-Id`, the caller's own when it sends one);
 * `logAnswer` logs it once answered.
 */
export function nameRequest(req: IncomingMessage, res: ServerResponse): LoggedRequest {
  const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || `${PROCESS_ID}-${(++served).toString(36)}`;
  res.setHeader('X-Request-Id', id);
  return { id, started: performance.now() };
}

/**
 * Logs an answered request: errors at error level, the successful answers of
 * quiet routes (hot paths such as tracking) at debug level, the rest at info.
 */
export function logAnswer(logger: SvcLogger, req: IncomingMessage, named: LoggedRequest, status: number, url: string, quiet: boolean): void {
  const level = status >= 500 ? 'error' : quiet && status < 400 ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const ms = performance.now() - named.started;
  logger[level]({ reqId: named.id, method: req.method, url: logUrl(url), status, ms: Math.round(ms * 10) / 10 }, 'request');
}

/** Names the request and logs it when its answer has been sent; `url` and `quiet` are read then. */
export function logRequest(logger: SvcLogger, req: IncomingMessage, res: ServerResponse, url: () => string, quiet: () => boolean): void {
  const named = nameRequest(req, res);
  res.on('finish', () => logAnswer(logger, req, named, res.statusCode, url(), quiet()));
}
