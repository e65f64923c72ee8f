import path from 'node:path';
import ejs from 'ejs';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { SvcMenuItem } from '../../hooks';
import type { Nonces } from '../auth/nonces';
import { ANONYMOUS, type Capability, type Principal } from '../auth/types';
import type { Users } from '../auth/users';
import type { SvcConfig } from '../config';
import { SvcError, badRequest, isSvcError } from '../errors';
import type { HookRegistry } from '../hooks/registry';
import { toSvcError } from '../http/errors';
import { logUrl } from '../http/log-url';
import type { SvcLogger } from '../logger';
import type { Sites } from '../sites/sites';
import type { Site } from '../sites/types';
import { VIEWS_DIR } from '../paths';
import { originNoticeOnce } from './origin-notice';
import { chosenSite } from './site-choice';

export const ADMIN_NONCE_ACTION = 'svc_admin';

export interface AdminRequest {
  readonly raw: Request;
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: Readonly<Record<string, unknown>>;
}

export type AdminResult =
  | { view: string; title?: string; data?: Record<string, unknown>; status?: number }
  | { redirect: string }
  | { json: unknown; status?: number };

export interface AdminPageDef {
  /** Path below `/svc-admin`, e.g. `/statistics`. */
  path: string;
  /** Needed capability; null for pages anonymous visitors may open (the login form). */
  capability: Capability | null;
  get?(req: AdminRequest): Promise<AdminResult> | AdminResult;
  /** Form posts; the `_svc_nonce` field is checked before this runs. */
  post?(req: AdminRequest): Promise<AdminResult> | AdminResult;
}

export interface AdminDeps {
  config: SvcConfig;
  users: Users;
  nonces: Nonces;
  hooks: HookRegistry;
  logger: SvcLogger;
  sites: Sites;
}

const escapeHtml = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The admin area below `/svc-admin`: signed-in pages rendered with ejs inside
 * one layout whose menu comes from `svc_menu`.
 */
export class AdminService {
  readonly router: Router = Router();
  private readonly pages = Router();
  /** URL of the script every admin page loads (set once the kernel's assets exist). */
  layoutScript: () => Promise<string> = async () => '';

  constructor(private readonly deps: AdminDeps) {
    this.router.use(express.urlencoded({ extended: false, limit: '256kb' }));
    this.router.use('/assets', express.static(path.join(VIEWS_DIR, 'assets'), { maxAge: '1h' }));
    this.router.use(this.pages);
    this.router.use((_req, _res, next) => next(new SvcError('svc_no_page', 'This page does not exist.', 404)));
    this.router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
      this.renderError(req, res, err).catch(next);
    });
  }

  /** Adds a page. Unless it is public, anonymous visitors are sent to the login form; missing capability answers 403. */
  page(def: AdminPageDef): void {
    const guard = async (req: Request, res: Response): Promise<AdminRequest | null> => {
      const principal = req.principal ?? ANONYMOUS;
      if (def.capability && !principal.user) return null;
      if (def.capability && principal.user) {
        try {
          req.site = await chosenSite(this.deps.sites, this.deps.config, principal.user, def.capability, req, res);
        } catch (err) {
          if (isSvcError(err) && err.code === 'svc_forbidden') throw new SvcError('svc_forbidden', 'You are not allowed to open this page.', 403);
          throw err;
        }
      }
      return {
        raw: req,
        principal,
        params: { ...(req.params as Record<string, string>) },
        query: { ...(req.query as Record<string, unknown>) },
        body: { ...((req.body as Record<string, unknown> | undefined) ?? {}) },
      };
    };
    const handle = (run: (r: AdminRequest) => Promise<AdminResult> | AdminResult, checkNonce: boolean) =>
      async (req: Request, res: Response) => {
        const adminReq = await guard(req, res);
        if (!adminReq) {
          res.redirect(`${this.url('/login')}?redirect_to=${encodeURIComponent(req.originalUrl)}`);
          return;
        }
        if (checkNonce && adminReq.principal.user && !(await this.deps.nonces.verify(adminReq.body._svc_nonce, ADMIN_NONCE_ACTION, adminReq.principal))) {
          throw badRequest('This form has expired. Reload the page and try again.', 'svc_invalid_nonce');
        }
        await this.send(req, res, await run(adminReq));
      };
    if (def.get) this.pages.get(def.path, handle(def.get, false));
    if (def.post) this.pages.post(def.path, handle(def.post, true));
  }

  /**
   * Serves the admin page at `pagePath` to a request that arrived at another
   * URL (share links show dashboard tabs in place). `contentData` becomes
   * `data-*` attributes of the layout's main element.
   */
  serve(pagePath: string, req: Request, res: Response, next: NextFunction, contentData: Record<string, string> = {}): void {
    const search = req.url.indexOf('?');
    const query = new URLSearchParams(search === -1 ? '' : req.url.slice(search + 1));
    // A page served for a link of one site shows that site, whatever site the address names.
    if (contentData.site !== undefined) query.set('site', contentData.site);
    else query.delete('site');
    req.url = `${pagePath}${query.size > 0 ? `?${query}` : ''}`;
    res.locals.contentData = contentData;
    this.router(req, res, next);
  }

  /** Absolute URL path of an admin page. */
  url(pagePath: string): string {
    return `${this.deps.config.basePath}/svc-admin${pagePath === '/' ? '/' : pagePath}`;
  }

  /** Menu items the principal may see, in order. */
  async menu(principal: Principal, site: Site | undefined): Promise<SvcMenuItem[]> {
    const items = await this.deps.hooks.applyFilters('svc_menu', []);
    const visible: SvcMenuItem[] = [];
    for (const item of items) {
      if (!item.capability || (await this.deps.sites.can(principal.user, site ?? (await this.deps.sites.default()), item.capability))) visible.push(item);
    }
    return visible.sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
  }

  /** Renders `view` (an .ejs path) inside the admin layout. */
  async render(req: Request, res: Response, view: string, title: string, data: Record<string, unknown> = {}, status = 200): Promise<void> {
    const principal = req.principal ?? ANONYMOUS;
    const shared = {
      title,
      user: principal.user,
      nonce: principal.user ? this.deps.nonces.create(principal, ADMIN_NONCE_ACTION) : '',
      restNonce: principal.user ? this.deps.nonces.create(principal, 'svc_nonce') : '',
      config: { baseUrl: this.deps.config.baseUrl, apiBase: this.deps.config.apiBase, apiPath: this.deps.config.apiPath, basePath: this.deps.config.basePath },
      adminUrl: (p: string) => this.url(p),
      esc: escapeHtml,
      currentPath: req.path,
      contentData: (res.locals.contentData ?? {}) as Record<string, string>,
    };
    const body = await ejs.renderFile(view, { ...shared, ...data }, { async: true });
    const menu = principal.user ? await this.menu(principal, req.site) : [];
    const switcher = principal.user && !principal.user.system && req.site ? { site: req.site, sites: await this.deps.sites.visibleTo(principal.user) } : null;
    const siteName = req.site && (await this.deps.sites.list()).length > 1 ? req.site.name : null;
    const originNotice = (await this.deps.users.can(principal.user, 'manage_options')) ? originNoticeOnce(req, res, this.deps.config) : null;
    const script = await this.layoutScript();
    const html = await ejs.renderFile(path.join(VIEWS_DIR, 'layout.ejs'), { ...shared, body, menu, originNotice, script, switcher, siteName }, { async: true });
    res.status(status).type('html').send(html);
  }

  private async send(req: Request, res: Response, result: AdminResult): Promise<void> {
    if ('redirect' in result) res.redirect(result.redirect);
    else if ('json' in result) res.status(result.status ?? 200).json(result.json);
    else await this.render(req, res, result.view, result.title ?? 'svc', result.data, result.status);
  }

  private async renderError(req: Request, res: Response, err: unknown): Promise<void> {
    const error = toSvcError(err);
    if (error.status >= 500) this.deps.logger.error({ err, url: logUrl(req.originalUrl) }, 'admin page failed');
    if (res.headersSent) return;
    if (typeof error.data?.retry_after === 'number') res.setHeader('Retry-After', String(error.data.retry_after));
    await this.render(req, res, path.join(VIEWS_DIR, 'error.ejs'), 'Error', { error }, error.status);
  }
}
