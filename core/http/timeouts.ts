import type http from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection may take at each stage, in milliseconds (README, "Limits"). */
export interface HttpTimeouts {
  /** From opening a connection (or finishing the previous answer on it) to complete request headers. */
  headers: number;
  /** From complete headers to the complete body of a request. */
  request: number;
  /** An idle connection between requests is closed after this (longer than a proxy's usual 60 s). */
  keepAlive: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { headers: 10_000, request: 60_000, keepAlive: 65_000 };

interface Watch {
  /** When the connection is destroyed unless a request arrives first (ms since the epoch); 0 while requests are worked on. */
  deadline: number;
  /** Requests on the connection whose answer has not finished. */
  open: number;
  /** A request whose body is still arriving, and when it must be complete. */
  body: http.IncomingMessage | null;
  bodyDeadline: number;
}

/**
 * Applies the timeouts to a server. Node has settings for them, but its
 * periodic check misses connections (one that never sends a byte stays open
 * once another connection has been kept alive), so each connection also
 * carries its own deadlines: complete headers within `headers` of opening or
 * of the previous answer (`keepAlive` more when that answer kept it open),
 * the body within `request` of the headers. One sweep a fraction of the
 * shortest timeout apart destroys the connections past a deadline (no timer
 * per request); answers being worked on are never cut.
 */
export function applyTimeouts(server: http.Server, timeouts: HttpTimeouts): void {
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.keepAlive;
  const watches = new Map<Socket, Watch>();
  const sweep = () => {
    const now = Date.now();
    for (const [socket, watch] of watches) {
      const late = (watch.deadline > 0 && now > watch.deadline) || (watch.body !== null && !watch.body.complete && now > watch.bodyDeadline);
      if (late) socket.destroy();
    }
  };
  const every = Math.min(1_000, Math.max(25, Math.min(timeouts.headers, timeouts.request, timeouts.keepAlive) / 8));
  const sweeper = setInterval(sweep, every).unref();
  server.once('close', () => clearInterval(sweeper));

  server.on('connection', (socket: Socket) => {
    watches.set(socket, { deadline: Date.now() + timeouts.headers, open: 0, body: null, bodyDeadline: 0 });
    socket.once('close', () => watches.delete(socket));
  });

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const watch = watches.get(req.socket);
    if (!watch) return;
    watch.open++;
    watch.deadline = 0;
    if (!req.complete) {
      watch.body = req;
      watch.bodyDeadline = Date.now() + timeouts.request;
    }
    res.once('close', () => {
      if (watch.body === req) watch.body = null;
      if (--watch.open === 0) watch.deadline = Date.now() + timeouts.keepAlive + timeouts.headers;
    });
  });
}
