import { Readable } from 'node:stream';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { Nonces } from '../auth/nonces';
import { ANONYMOUS, type Principal } from '../auth/types';
import type { Users } from '../auth/users';
import { forbidden, unauthorized } from '../errors';
import type { HookRegistry } from '../hooks/registry';
import type { Sites } from '../sites/sites';
import { type NoncePolicy, RestResponse, type RestRequest, type RestRouteDef, type RestRouteInfo } from './rest-types';

export interface BodyOptions {
  /** Largest accepted body, e.g. '64kb'; larger answers 413. */
  limit?: string;
  /** Content types parsed as JSON. */
  types?: string[];
}

export interface RouteDefinition extends RestRouteDef {
  body?: BodyOptions;
  /** Extra express middleware run before authentication (e.g. CORS). */
  before?: RequestHandler[];
}

const DEFAULT_BODY: Required<BodyOptions> = { limit: '1mb', types: ['application/json'] };

/** Where a caller's nonce may travel. */
function nonceOf(req: Request): unknown {
  const body = req.body as Record<string, unknown> | undefined;
  return req.get('x-svc-nonce') ?? (req.query as Record<string, unknown>).svc_nonce ?? body?.svc_nonce;
}

export interface RestDeps {
  users: Users;
  nonces: Nonces;
  hooks: HookRegistry;
  sites: Sites;
}

/** The `site` argument of a request: the query string's, else the JSON body's field. */
function siteArgOf(req: Request): unknown {
  const query = (req.query as Record<string, unknown>).site;
  if (query !== undefined) return query;
  const body = req.body as unknown;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).site : undefined;
}

/**
 * The REST API below `{api_base}`. Each route states its capability; the
 * kernel checks it (401 anonymous), resolves the `site` argument (404 for a
 * site the caller may not see) and checks the capability on that site (403 missing), then the nonce (session
 * callers, or every caller where the route says so), then `svc_rest_pre_dispatch`, all on the route that actually runs.
 */
export class RestRouter {
  /** Case-sensitive: documented path segments are lowercase (`[a-z_-]+`), `/Sales` is another path. */
  readonly router: Router = Router({ caseSensitive: true });
  private readonly routes: RestRouteInfo[] = [];

  constructor(
    private readonly deps: RestDeps,
  ) {}

  list(): readonly RestRouteInfo[] {
    return this.routes;
  }

  add(plugin: string, def: RouteDefinition): RestRouteInfo {
    const info: RestRouteInfo = Object.freeze({
      id: `${plugin}:${def.method} ${def.path}`,
      plugin,
      method: def.method,
      path: def.path,
      capability: def.capability,
      meta: Object.freeze({ ...(def.meta ?? {}) }),
    });
    const body = { ...DEFAULT_BODY, ...def.body };
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const handlers: RequestHandler[] = [...(def.before ?? [])];
    if (def.method !== 'GET') handlers.push(express.json({ limit: body.limit, strict: false, type: body.types }));
    handlers.push((req, res, next) => {
      this.dispatch(info, def, req, res).catch(next);
    });
    this.router[method](def.path, ...handlers);
    if (def.before?.length && def.method !== 'GET') this.router.options(def.path, ...def.before);
    this.routes.push(info);
    return info;
  }

  private async dispatch(info: RestRouteInfo, def: RestRouteDef, req: Request, res: Response): Promise<void> {
    const principal = req.principal ?? ANONYMOUS;
    if (def.capability && !principal.user) throw unauthorized();
    const site = await this.deps.sites.authorize(principal.user, siteArgOf(req), def.capability);
    if (needsNonce(def, principal)) {
      if (!(await this.deps.nonces.verify(nonceOf(req), 'svc_nonce', principal))) {
        throw forbidden('The svc_nonce is missing or invalid: fetch one from GET {api_base}/nonce with the same sign-in.', 'svc_invalid_nonce');
      }
    }
    req.site = site;
    const request: RestRequest = {
      route: info,
      params: { ...(req.params as Record<string, string>) },
      query: { ...(req.query as Record<string, unknown>) },
      body: req.body,
      headers: req.headers,
      principal,
      site,
      ip: req.ip ?? '',
      raw: req,
    };
    const denial = await this.deps.hooks.applyFilters('svc_rest_pre_dispatch', null, request);
    if (denial) throw denial;
    send(res, await def.handler(request));
  }
}

/** Whether this caller must prove the request with a nonce on this route (the default follows the capability). */
function needsNonce(def: RestRouteDef, principal: Principal): boolean {
  const policy: NoncePolicy = def.nonce ?? (def.capability === null ? 'none' : 'session');
  if (policy === 'every-caller') return principal.user !== null;
  return policy === 'session' && principal.method === 'session';
}

function send(res: Response, result: unknown): void {
  if (result instanceof RestResponse) {
    res.status(result.status).set(result.headers);
    if (result.body === undefined || result.body === null) res.end();
    else if (typeof result.body === 'string' || Buffer.isBuffer(result.body)) res.send(result.body);
    else if (result.body instanceof Readable) result.body.pipe(res);
    else res.json(result.body);
    return;
  }
  res.json(result ?? null);
}
