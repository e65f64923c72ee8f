import type { IncomingHttpHeaders } from 'node:http';
import express, { type Express, type RequestHandler, Router } from 'express';
import helmet from 'helmet';
import type { Authenticator } from '../auth/passport';
import { SESSION_COOKIE, type SessionStore } from '../auth/sessions';
import { ANONYMOUS, type Principal } from '../auth/types';
import type { SvcConfig } from '../config';
import { SvcError, describeError, notFound, unauthorized } from '../errors';
import type { SvcLogger } from '../logger';
import { type TrustProxy, trustedClientAddress } from './client-address';
import { jsonErrorHandler } from './errors';
import { requestContext } from './request-context';
import { logRequest } from './request-log';
import { refuseMalformedPaths } from './url-encoding';

export interface PublicMountOptions {
  /**
   * Sign-in sessions for these routes: `true` reads and may start one (share
   * pages); `'lazy'` only reads one when the request carries the session cookie.
   */
  session?: boolean | 'lazy';
  /** Log successful requests at debug level only (hot paths such as tracking). */
  quiet?: boolean;
  /** Callers may authenticate with an application password (HTTP Basic). */
  basicAuth?: boolean;
}

export interface HttpParts {
  config: SvcConfig;
  logger: SvcLogger;
  sessions: SessionStore;
  passport: Authenticator;
}

/** Resolves the caller: HTTP Basic with an application password wins over the session cookie. */
function principalMiddleware(passport: Authenticator, allowBasic: boolean): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization;
    if (allowBasic && header && /^basic\s/i.test(header)) {
      passport.authenticate('basic', { session: false }, (err: unknown, user: Express.User | false) => {
        if (err) return next(err);
        if (!user) return next(unauthorized('The user name or application password is not valid.', 'svc_invalid_app_password'));
        req.principal = { user, method: 'app_password', sessionId: null };
        next();
      })(req, res, next);
      return;
    }
    const principal: Principal = req.user ? { user: req.user, method: 'session', sessionId: req.sessionID } : ANONYMOUS;
    req.principal = principal;
    next();
  };
}

/**
 * The HTTP surface: public routes of plugins, REST namespaces and the admin
 * area, each mounted below the base path of `SVC_BASE_URL`.
 */
export class HttpApp {
  readonly app: Express = express();
  private readonly root = Router();
  private readonly publicRoutes = Router();
  /** REST namespaces, mounted below the REST prefix as plugins and the kernel add them. */
  private readonly restNamespaces = Router();
  private readonly sessionStack: RequestHandler[];
  /** The session stack for requests that carry the session cookie; others skip the lookup. */
  private readonly lazySession: RequestHandler;

  constructor(private readonly parts: HttpParts) {
    const { config, logger, sessions, passport } = parts;
    const app = this.app;
    app.disable('x-powered-by');
    app.set('query parser', 'extended');
    try {
      app.set('trust proxy', config.trustProxy);
    } catch (err) {
      throw new SvcError('SVC_ERR_CONFIG', `SVC_TRUST_PROXY: ${describeError(err)}`, 500);
    }
    app.use(this.requestLog(logger));
    app.use(refuseMalformedPaths);
    app.use(
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:'],
            connectSrc: ["'self'"],
            upgradeInsecureRequests: config.baseUrl.startsWith('https:') ? [] : null,
          },
        },
        crossOriginResourcePolicy: { policy: 'same-site' },
        hsts: config.baseUrl.startsWith('https:'),
      }),
    );
    this.sessionStack = [sessions.middleware, passport.initialize(), passport.session()];
    const sessionRouter = Router();
    sessionRouter.use(...this.sessionStack);
    const cookiePrefix = `${SESSION_COOKIE}=`;
    this.lazySession = (req, res, next) =>
      (req.headers.cookie ?? '').includes(cookiePrefix) ? sessionRouter(req, res, next) : next();
    this.root.use(this.publicRoutes);
    // The service's own front page is its admin area.
    this.root.get('/', (_req, res) => res.redirect(302, `${config.basePath}/svc-admin/`));
    // Anything below the REST prefix that no namespace answers is a JSON 404, as on the host platform.
    const restNotFound: RequestHandler = (_req, _res, next) => next(notFound());
    if (config.restPrefix) this.root.use(config.restPrefix, this.restNamespaces, restNotFound, jsonErrorHandler(logger));
    else this.root.use(this.restNamespaces);
    app.use(config.basePath || '/', this.root);
    app.use((_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    });
    app.use(jsonErrorHandler(logger));
  }

  /**
   * The client's address through the proxies `SVC_TRUST_PROXY` names (as
   * `req.ip` of express routes), for requests served outside express; null
   * when `SVC_TRUST_PROXY` is not set.
   */
  clientAddress(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string | null {
    if (this.parts.config.trustProxy === false) return null;
    return trustedClientAddress(this.app.get('trust proxy fn') as TrustProxy, headers, remoteAddress);
  }

  /** Mounts a plugin's non-REST router (tracking endpoint, scripts, share pages). */
  mount(path: string, router: Router, options: PublicMountOptions = {}): void {
    this.publicRoutes.use(path, ...this.stack(options), router);
  }

  /** Serves exactly `path` (any method; the handlers pass on what they do not answer), before the REST namespaces. */
  route(path: string, handlers: RequestHandler[], options: PublicMountOptions = {}): void {
    this.publicRoutes.all(path, ...this.stack(options), ...handlers);
  }

  private stack(options: PublicMountOptions): RequestHandler[] {
    const stack: RequestHandler[] = [];
    if (options.quiet) stack.push((_req, res, next) => ((res.locals.quiet = true), next()));
    if (options.session === 'lazy') stack.push(this.lazySession);
    else if (options.session) stack.push(...this.sessionStack);
    if (options.session || options.basicAuth) {
      stack.push(this.parts.passport.initialize(), principalMiddleware(this.parts.passport, Boolean(options.basicAuth)));
    }
    return stack;
  }

  /** Mounts a REST namespace (`/svc/v1`, `/wp-abilities/v1`) below the REST prefix. */
  mountRest(namespace: string, router: Router): void {
    const outer = Router();
    // REST never starts a session, so callers without the cookie skip the session lookup.
    outer.use(this.lazySession, this.parts.passport.initialize(), principalMiddleware(this.parts.passport, true));
    outer.use(router);
    outer.use((_req, _res, next) => next(notFound()));
    outer.use(jsonErrorHandler(this.parts.logger));
    this.restNamespaces.use(`/${namespace}`, outer);
  }

  /** Mounts the admin area; its router renders HTML errors itself. */
  mountAdmin(router: Router): void {
    this.root.use('/svc-admin', ...this.sessionStack, principalMiddleware(this.parts.passport, false), router);
  }

  private requestLog(logger: SvcLogger): RequestHandler {
    return (req, res, next) => {
      logRequest(logger, req, res, () => req.originalUrl, () => res.locals.quiet === true);
      requestContext.run(req, next);
    };
  }
}
