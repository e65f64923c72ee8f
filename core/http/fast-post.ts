import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { SESSION_COOKIE } from '../auth/sessions';
import type { SvcConfig } from '../config';
import { SvcError } from '../errors';
import type { SvcLogger } from '../logger';
import { originAllowed } from './cors';
import { errorBody } from './envelope';
import { toSvcError } from './errors';
import { logUrl } from './log-url';

export interface FastPostRequest {
  headers: IncomingHttpHeaders;
  remoteAddress: string | undefined;
  /** The raw body as UTF-8 text. */
  body: string;
}

export interface FastPostAnswer {
  status: number;
  /** Sent as JSON; without it the answer has an empty body (or `text`). */
  json?: unknown;
  text?: string;
}

export interface FastPostRoute {
  /** Path below the base path, e.g. `/svc/endpoint`. */
  path: string;
  /** Largest body in bytes; larger answers 413. */
  limit: number;
  /** Answer with the tracking CORS headers for `SVC_ALLOWED_ORIGINS`. */
  cors: boolean;
  /** Content types served here (without parameters); others go to the express route. Any when absent. */
  types?: readonly string[];
  handler(req: FastPostRequest): Promise<FastPostAnswer>;
}

/**
 * POST routes served before express for the hot path (tracking hits): an
 * exact path match, the body read with a limit, the CORS headers and the
 * answer, nothing else. A request that needs more — a sign-in cookie, an
 * encoded body, another method — goes to the express route of the same
 * path, which must exist and run the same handler.
 */
export class FastPostRoutes {
  private readonly routes = new Map<string, FastPostRoute>();
  private readonly cookie = `${SESSION_COOKIE}=`;

  constructor(
    private readonly config: Pick<SvcConfig, 'allowedOrigins' | 'basePath'>,
    private readonly logger: SvcLogger,
  ) {}

  add(route: FastPostRoute): void {
    this.routes.set(`${this.config.basePath}${route.path}`, route);
  }

  /** Serves the request and answers true, or answers false and leaves it untouched. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || this.routes.size === 0) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const route = this.routes.get(q === -1 ? url : url.slice(0, q));
    if (!route) return false;
    if (req.headers['content-encoding'] || (req.headers.cookie ?? '').includes(this.cookie)) return false;
    if (route.types && !route.types.includes((req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase())) return false;
    if (route.cors) {
      res.setHeader('Vary', 'Origin');
      if (originAllowed(this.config, req.headers.origin)) {
        res.setHeader('Access-Control-Allow-Origin', req.headers.origin);
        res.setHeader('Access-Control-Allow-Credentials', 'true');
      }
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    this.read(req, route.limit).then(
      (body) => route.handler({ headers: req.headers, remoteAddress: req.socket.remoteAddress, body }),
    ).then(
      (answer) => this.send(res, answer),
      (err: unknown) => this.fail(req, res, err),
    );
    return true;
  }

  private read(req: IncomingMessage, limit: number): Promise<string> {
    const declared = Number(req.headers['content-length']);
    if (declared > limit) {
      req.resume();
      return Promise.reject(new SvcError('svc_payload_too_large', 'The request body is too large.', 413));
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          req.removeAllListeners('data');
          req.resume();
          reject(new SvcError('svc_payload_too_large', 'The request body is too large.', 413));
        } else chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', () => reject(new SvcError('svc_request_aborted', 'The request was aborted.', 400)));
    });
  }

  private send(res: ServerResponse, answer: FastPostAnswer): void {
    if (answer.json !== undefined) {
      const body = JSON.stringify(answer.json);
      res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } else if (answer.text !== undefined) {
      res.writeHead(answer.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(answer.text) });
      res.end(answer.text);
    } else {
      res.writeHead(answer.status, { 'Content-Length': 0 });
      res.end();
    }
  }

  private fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    const error = toSvcError(err);
    if (error.status >= 500) this.logger.error({ err, url: logUrl(req.url ?? '') }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    this.send(res, { status: error.status, json: errorBody(error) });
  }
}
