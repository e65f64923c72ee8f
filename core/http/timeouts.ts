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
  timer: NodeJS.Timeout | null;
  /** Requests on the connection whose answer has not finished. */
  open: number;
}

/**
 * Applies the timeouts to a server. Node has settings for them, but its
 * periodic check misses connections (one that never sends a byte stays open
 * once another connection has been kept alive), so each connection also
 * carries its own deadline: complete headers within `headers` of opening or
 * of the previous answer (`keepAlive` more when that answer kept it open),
 * the body within `request` of the headers. A connection past its deadline
 * is destroyed; answers being worked on are never cut.
 */
export function applyTimeouts(server: http.Server, timeouts: HttpTimeouts): void {
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.keepAlive;
  const watches = new WeakMap<Socket, Watch>();
  const arm = (socket: Socket, ms: number) => {
    const watch = watches.get(socket);
    if (!watch || socket.destroyed) return;
    if (watch.timer) clearTimeout(watch.timer);
    watch.timer = setTimeout(() => socket.destroy(), ms).unref();
  };
  const disarm = (watch: Watch) => {
    if (watch.timer) clearTimeout(watch.timer);
    watch.timer = null;
  };

  server.on('connection', (socket: Socket) => {
    watches.set(socket, { timer: null, open: 0 });
    arm(socket, timeouts.headers);
    socket.once('close', () => disarm(watches.get(socket)!));
  });

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    const watch = watches.get(socket);
    if (!watch) return;
    watch.open++;
    disarm(watch);
    if (!req.complete) {
      const body = setTimeout(() => req.complete || socket.destroy(), timeouts.request).unref();
      res.once('close', () => clearTimeout(body));
    }
    res.once('close', () => {
      watch.open--;
      if (watch.open === 0) arm(socket, timeouts.keepAlive + timeouts.headers);
    });
  });
}
