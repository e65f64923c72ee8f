import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import type { Capability, Principal } from '../auth/types';
import type { Site } from '../sites/types';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What the kernel and guards know about the route that actually runs. */
export interface RestRouteInfo {
  /** Stable id for logs and guards: `<plugin>:<METHOD> <path>`. */
  readonly id: string;
  readonly plugin: string;
  readonly method: HttpMethod;
  /** Express path pattern relative to `{api_base}`, e.g. `/data/:type`. */
  readonly path: string;
  /** Needed capability; null for public routes. */
  readonly capability: Capability | null;
  /** Free-form labels guards read, e.g. `{ tab: 'sales' }`. */
  readonly meta: Readonly<Record<string, unknown>>;
}

export interface RestRequest {
  readonly route: RestRouteInfo;
  readonly params: Readonly<Record<string, string>>;
  /** Parsed query arguments; guards may force values here before the handler runs. */
  query: Record<string, unknown>;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  readonly principal: Principal;
  /** The site named by the optional `site` argument (query string or JSON body field), the default site without one. */
  readonly site: Site;
  readonly ip: string;
  readonly raw: Request;
}

/** A handler's answer: a JSON value sent with 200, or an explicit status and body. */
export type RestResult = unknown | RestResponse;

export class RestResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Which callers of a route must send a valid `svc_nonce`. */
export type NoncePolicy = 'none' | 'session' | 'every-caller';

export interface RestRouteDef {
  method: HttpMethod;
  path: string;
  /** Capability the principal must hold; `null` makes the route public. */
  capability: Capability | null;
  /**
   * Who must send a valid `svc_nonce`, checked after the capability:
   * `'session'` (the default for a route with a capability) asks it of cookie
   * sessions only, `'every-caller'` of application-password callers as well,
   * `'none'` of nobody (the default for a public route).
   */
  nonce?: NoncePolicy;
  meta?: Record<string, unknown>;
  handler(request: RestRequest): Promise<RestResult> | RestResult;
}
