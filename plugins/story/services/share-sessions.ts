import type { Request, Response } from 'express';
import type { SvcSharePermissions } from '../../../hooks';
import { ANONYMOUS, type Clock, type Hooks, SESSION_COOKIE, type SvcError, unauthorized } from '../../../core';
import { TOKEN_HEADER, TOKEN_PARAM, isTokenFormat } from '../shared/constants';
import type { BoundLink } from '../types';
import type { ShareTokens } from './tokens';
import { type ViewerAccount, isViewer } from './viewer';

declare module 'express-session' {
  interface SessionData {
    /** The link a viewer session was made for, and when it began (unix seconds, kernel clock). */
    svcShare?: { token: string; started: number };
  }
}

/** No viewer session lives longer than this (§5 rule 9, §8). */
export const SESSION_MAX_AGE = 24 * 3600;

export interface ShareSessionsDeps {
  tokens: ShareTokens;
  viewer: ViewerAccount;
  clock: Clock;
  hooks: Pick<Hooks, 'applyFilters'>;
  basePath: string;
}

/** Permissions of the current link (the non-empty form of `SvcLinkPermissions`). */
export type LinkPermissions = SvcSharePermissions & { is_shareable_link_viewer: boolean };

export type SessionCheck = { link: BoundLink } | { error: SvcError };

/**
 * Viewer sessions: a visit to a live link signs the browser in as the viewer
 * for that token only; each later request finds the session ended when it is
 * 24 hours old or its link expired or was revoked.
 */
export class ShareSessions {
  private readonly named = new WeakMap<Request, Promise<BoundLink | null>>();
  private readonly ofSession = new WeakMap<Request, Promise<BoundLink | null>>();

  constructor(private readonly deps: ShareSessionsDeps) {}

  /** The token a request names: `svc_share_token` in the query, else the `X-Svc-Share-Token` header. */
  tokenOf(req: Request): unknown {
    const fromQuery = (req.query as Record<string, unknown>)[TOKEN_PARAM];
    return fromQuery !== undefined ? fromQuery : req.get(TOKEN_HEADER);
  }

  /** The live link the request names, resolved once per request. */
  linkOf(req: Request): Promise<BoundLink | null> {
    let link = this.named.get(req);
    if (!link) {
      link = this.deps.tokens.resolve(this.tokenOf(req));
      this.named.set(req, link);
    }
    return link;
  }

  /** The live link the request's viewer session was made for, resolved once per request. */
  sessionLink(req: Request): Promise<BoundLink | null> {
    let link = this.ofSession.get(req);
    if (!link) {
      link = this.deps.tokens.resolve(req.session?.svcShare?.token);
      this.ofSession.set(req, link);
    }
    return link;
  }

  /** The link's permissions for this request after `svc_share_link_permissions` (§5 rule 7). */
  async permissions(req: Request, link: BoundLink): Promise<LinkPermissions> {
    const base: LinkPermissions = { ...link.permissions, is_shareable_link_viewer: this.belongsTo(req, link.token) };
    const filtered: unknown = await this.deps.hooks.applyFilters('svc_share_link_permissions', base);
    const value = typeof filtered === 'object' && filtered !== null ? (filtered as Record<string, unknown>) : base;
    return { can_change_date: value.can_change_date === true, can_filter: value.can_filter === true, is_shareable_link_viewer: value.is_shareable_link_viewer === true };
  }

  /** True for a viewer session made for `token` that is not yet 24 hours old. */
  belongsTo(req: Request, token: string): boolean {
    const share = req.session?.svcShare;
    return isViewer(req.principal ?? ANONYMOUS) && share?.token === token && this.fresh(share.started);
  }

  /** True when the request's token header is its viewer session's token: a share session's stand-in for the nonce. */
  headerMatches(req: Request): boolean {
    const header = req.get(TOKEN_HEADER);
    return isTokenFormat(header) && req.session?.svcShare?.token === header;
  }

  /** Signs the browser in as the viewer for `link` (a new session id; any earlier sign-in ends). */
  async signIn(req: Request, link: BoundLink): Promise<void> {
    const user = this.deps.viewer.user;
    await new Promise<void>((resolve, reject) => req.login(user, (err) => (err ? reject(err) : resolve())));
    req.session.svcShare = { token: link.token, started: this.deps.clock.unix() };
    req.session.cookie.maxAge = SESSION_MAX_AGE * 1000;
    req.principal = { user, method: 'session', sessionId: req.sessionID };
  }

  /** Whether a viewer's session may go on; when it may not, it is ended here. */
  async check(req: Request, res: Response): Promise<SessionCheck> {
    const share = req.session?.svcShare;
    if (!share || !this.fresh(share.started)) {
      await this.end(req, res);
      return { error: unauthorized('This shared view has ended; open the share link again.', 'svc_share_session_expired') };
    }
    const link = await this.sessionLink(req);
    if (!link) {
      await this.end(req, res);
      return { error: unauthorized('This share link has expired or was revoked.', 'svc_share_link_expired') };
    }
    return { link };
  }

  async end(req: Request, res: Response): Promise<void> {
    if (req.session) await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    res.clearCookie(SESSION_COOKIE, { path: this.deps.basePath || '/' });
    req.principal = ANONYMOUS;
  }

  private fresh(started: number): boolean {
    return this.deps.clock.unix() - started < SESSION_MAX_AGE;
  }
}
