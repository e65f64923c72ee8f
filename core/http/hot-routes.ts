import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { SESSION_COOKIE } from '../auth/sessions';
import { ANONYMOUS, type Principal } from '../auth/types';
import { SvcError, badRequest } from '../errors';
import type { SvcLogger } from '../logger';
import { isPending, type Soon } from '../soon';
import { type CorsPolicy, applyCors, corsMiddleware } from './cors';
import { errorBody } from './envelope';
import { errorHeaders, toSvcError } from './errors';
import { type LoggedRequest, logAnswer, nameRequest } from './request-log';
import { logUrl } from './log-url';
import { requestContext } from './request-context';

export interface HotRequest {
  headers: IncomingHttpHeaders;
  remoteAddress: string | undefined;
  /** Anonymous on the hot path; express resolves sign-in cookies and application passwords. */
  principal: Principal;
  /** Parsed JSON (`body: 'json'`) or the raw text (`'text'`). */
  body: unknown;
  /** The stack that served the request. */
  via: 'hot' | 'express';
}

export interface HotAnswer {
  status: number;
  /** Sent as JSON; without it the answer has an empty body (or `text`). */
  json?: unknown;
  text?: string;
}

/** A POST route declared once and served by two stacks (docs/adr/0005-hot-routes.md). */
export interface HotRouteDef {
  /** Path below the base path, e.g. `/svc/endpoint`. */
  path: string;
  /** Largest body in bytes; larger answers 413. */
  limit: number;
  /** `json`: parsed as express.json does without strict mode (an empty body is `{}`); `text`: as sent. */
  body: 'json' | 'text';
  /** Content types served (without parameters): JSON routes parse only these; the hot path leaves others to express. Any when absent. */
  types?: readonly string[];
  cors?: CorsPolicy;
  /** Callers may authenticate with an application password (HTTP Basic). */
  basicAuth?: boolean;
  /**
   * Whether the hot path must serve the request in the request context
   * (`ctx.http.currentHeaders()` for hook handlers): asked per request; always
   * when absent. Express serves every request in it.
   */
  needsContext?(): boolean;
  /** The answer, at once or later. */
  handler(req: HotRequest): Soon<HotAnswer>;
}

/** Writes a route's answer; both stacks answer through it. */
function writeAnswer(res: ServerResponse, answer: HotAnswer, headers: Record<string, string> = {}): void {
  if (answer.json !== undefined) {
    const body = JSON.stringify(answer.json);
    res.writeHead(answer.status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  } else if (answer.text !== undefined) {
    res.writeHead(answer.status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(answer.text) });
    res.end(answer.text);
  } else {
    res.writeHead(answer.status, { ...headers, 'Content-Length': 0 });
    res.end();
  }
}

/** A JSON body as express.json({ strict: false }) reads it. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON.', 'svc_invalid_json');
  }
}

const tooLarge = () => new SvcError('svc_payload_too_large', 'The request body is too large.', 413);

/** Reads the body as UTF-8 text, at most `limit` bytes, and calls back once with it or with the error that stopped it. */
function readBody(req: IncomingMessage, limit: number, done: (err: SvcError | null, text: string) => void): void {
  if (Number(req.headers['content-length']) > limit) {
    req.resume();
    return done(tooLarge(), '');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) return void chunks.push(chunk);
    if (over) return;
    over = true;
    done(tooLarge(), '');
  });
  req.on('end', () => over || done(null, chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
  req.on('error', () => over || ((over = true), done(new SvcError('svc_request_aborted', 'The request was aborted.', 400), '')));
}

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Hot routes: each is served by express (the express handlers below, mounted
 * by the kernel) and, for the usual request — anonymous, unencoded, a served
 * content type — by the hot path before express: an exact path match, the
 * request log, the CORS headers, the body read with its limit, the request
 * context, the handler and its answer or error, nothing else. Both stacks run
 * the same handler, CORS policy, error answers and request context.
 */
export class HotRoutes {
  private readonly routes = new Map<string, HotRouteDef>();
  private readonly cookie = `${SESSION_COOKIE}=`;

  constructor(
    private readonly basePath: string,
    private readonly logger: SvcLogger,
  ) {}

  /** Adds the hot path of `def`; answers the express handlers that serve it otherwise. */
  add(def: HotRouteDef): RequestHandler[] {
    this.routes.set(`${this.basePath}${def.path}`, def);
    const parse =
      def.body === 'json'
        ? express.json({ limit: def.limit, strict: false, type: def.types ? [...def.types] : () => true })
        : express.text({ limit: def.limit, type: () => true });
    const serve: RequestHandler = (req, res, next) => {
      const request = { headers: req.headers, remoteAddress: req.socket.remoteAddress, principal: req.principal ?? ANONYMOUS, body: req.body as unknown, via: 'express' as const };
      Promise.resolve()
        .then(() => def.handler(request))
        .then((answer) => writeAnswer(res, answer), next);
    };
    const methods: RequestHandler = (req, _res, next) => next(req.method === 'POST' || (def.cors && req.method === 'OPTIONS') ? undefined : 'route');
    return def.cors ? [methods, corsMiddleware(def.cors), parse, serve] : [methods, parse, serve];
  }

  /** Serves the request and answers true, or answers false and leaves it to express. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || this.routes.size === 0) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const route = this.routes.get(q === -1 ? url : url.slice(0, q));
    if (!route) return false;
    const headers = req.headers;
    if (headers['content-encoding'] || (route.basicAuth && headers.authorization) || (headers.cookie ?? '').includes(this.cookie)) return false;
    if (route.types && !route.types.includes(mediaType(headers['content-type']))) return false;
    const named = nameRequest(req, res);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (route.cors) applyCors(route.cors, headers, res);
    readBody(req, route.limit, (err, text) => {
      if (err) return this.fail(req, res, named, err);
      const serve = () => {
        let answer: Soon<HotAnswer>;
        try {
          answer = route.handler({ headers, remoteAddress: req.socket.remoteAddress, principal: ANONYMOUS, body: route.body === 'json' ? parseJson(text) : text, via: 'hot' });
        } catch (err) {
          return this.fail(req, res, named, err);
        }
        if (!isPending(answer)) return this.answer(req, res, named, answer);
        answer.then(
          (ready) => this.answer(req, res, named, ready),
          (err: unknown) => this.fail(req, res, named, err),
        );
      };
      if (route.needsContext?.() ?? true) requestContext.runHot(req, res, serve);
      else serve();
    });
    return true;
  }

  private answer(req: IncomingMessage, res: ServerResponse, named: LoggedRequest, answer: HotAnswer, headers?: Record<string, string>): void {
    writeAnswer(res, answer, headers);
    logAnswer(this.logger, req, named, answer.status, req.url ?? '', true);
  }

  private fail(req: IncomingMessage, res: ServerResponse, named: LoggedRequest, err: unknown): void {
    const error = toSvcError(err);
    if (error.status >= 500) this.logger.error({ err, url: logUrl(req.url ?? '') }, 'request failed');
    if (res.headersSent) return void res.destroy();
    this.answer(req, res, named, { status: error.status, json: errorBody(error) }, errorHeaders(error));
  }
}
