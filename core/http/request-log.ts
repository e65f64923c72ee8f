import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SvcLogger } from '../logger';
import { logUrl } from './log-url';

/**
 * Names the request (`X-Request-Id`, the caller's own when it sends one) and
 * logs it when answered: errors at error level, the successful answers of
 * quiet routes (hot paths such as tracking) at debug level, the rest at info.
 * `url` and `quiet` are read once the answer is sent.
 */
export function logRequest(logger: SvcLogger, req: IncomingMessage, res: ServerResponse, url: () => string, quiet: () => boolean): void {
  const started = process.hrtime.bigint();
  const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
  res.setHeader('X-Request-Id', id);
  res.on('finish', () => {
    const level = res.statusCode >= 500 ? 'error' : quiet() && res.statusCode < 400 ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger[level]({ reqId: id, method: req.method, url: logUrl(url()), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
  });
}
