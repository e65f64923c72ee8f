import path from 'node:path';
import ejs from 'ejs';
import { type Request, type Response, Router } from 'express';
import { ANONYMOUS, DEFAULT_SITE_ID, type PluginContext } from '../../../core';
import type { StoryApp } from '../app';
import { storyView } from '../services/story-page';
import { sharedView } from '../services/view-state';
import { isViewer } from '../services/viewer';
import { DASHBOARD_PATH, STORY_TAB, TOKEN_PARAM, isShareTab, isTokenFormat } from '../shared/constants';
import type { BoundLink } from '../types';

const VIEWS = path.join(__dirname, '..', 'views');
export const STORY_SCRIPT = 'plugins/story/client/story.entry.ts';
export const STORY_STYLE = 'plugins/story/client/story.entry.css';
export const UPGRADE_SCRIPT = 'plugins/story/client/upgrade.entry.ts';

export const NOT_VALID = {
  title: 'This share link is not valid',
  message: 'Check that you copied the whole address, or ask whoever shared it for a new link.',
};
export const GONE = {
  title: 'This share link has expired',
  message: 'The link expired or was revoked. Ask whoever shared it for a new one.',
};

/** Standalone HTML pages of share links: never cached, never indexed. */
export async function sharePage(res: Response, status: number, view: string, locals: Record<string, unknown>): Promise<void> {
  const html = await ejs.renderFile(path.join(VIEWS, view), locals, { async: true });
  res.status(status).type('html').set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }).send(html);
}

/**
 * `{base_url}/svc-dashboard/…` (§4.3): the legacy upgrader page, the story of
 * a report link, and the shared dashboard tabs, which are the admin pages
 * themselves served in place to the viewer session. A person already signed
 * in is not turned into the viewer: the page runs with their session and
 * rights, or answers 403 where those do not reach.
 */
export function createDashboardRouter(ctx: PluginContext, app: StoryApp): Router {
  const router = Router();
  const { basePath } = ctx.config;
  const message = async (res: Response, status: number, text: { title: string; message: string }, script?: string) =>
    sharePage(res, status, 'message.ejs', { ...text, style: await ctx.assets.versionedUrl(STORY_STYLE), script });

  /** A signed-in person other than a viewer: they keep their own session and see the link with their own rights. */
  const person = (req: Request) => {
    const principal = req.principal ?? ANONYMOUS;
    return principal.user !== null && !isViewer(principal) ? principal : null;
  };

  /** Signs the browser in as the viewer for `link`, unless it already is, for this link, within 24 hours, or a person is signed in. */
  const enter = async (req: Request, link: BoundLink) => {
    if (!person(req) && !app.sessions.belongsTo(req, link.token)) await app.sessions.signIn(req, link);
  };

  // The legacy form `/svc-dashboard/?svc_share_token=…#/{tab}`: only the browser sees the hash.
  router.get('/', async (req, res) => {
    if (!isTokenFormat(req.query[TOKEN_PARAM])) return message(res, 404, NOT_VALID);
    return message(res, 200, { title: 'Opening the shared dashboard…', message: 'This older link is being updated.' }, await ctx.assets.versionedUrl(UPGRADE_SCRIPT));
  });

  router.get('/:tab', async (req, res, next) => {
    const tab = String(req.params.tab);
    if (!isTokenFormat(req.query[TOKEN_PARAM])) return message(res, 404, NOT_VALID);
    if (tab !== STORY_TAB && !isShareTab(tab)) return message(res, 404, { title: 'Not found', message: 'There is no such shared page.' });
    const link = await app.sessions.linkOf(req);
    if (!link) {
      // The session of this very link ends; a session of another link is left alone.
      if (isViewer(req.principal ?? ANONYMOUS) && req.session?.svcShare?.token === req.query[TOKEN_PARAM]) await app.sessions.end(req, res);
      return message(res, 404, GONE);
    }

    if (tab === STORY_TAB) {
      const reports = app.reports();
      const site = await ctx.sites.get(link.siteId);
      const report = link.report_id > 0 && reports && site ? await reports.reportObject(site.id, link.report_id, { is_shared_link: true }) : null;
      if (!reports || !site || !report || Array.isArray(report)) {
        return message(res, 404, { title: 'This story is not available', message: 'The link does not open a report, or the report was switched off or removed.' });
      }
      const signedIn = person(req);
      if (signedIn && !(await ctx.auth.users.can(signedIn.user, 'view_svc_statistics'))) {
        return message(res, 403, { title: 'Not for your account', message: 'You are signed in with an account that may not see statistics. Sign out to open this link as a visitor.' });
      }
      await enter(req, link);
      return sharePage(res, 200, 'story.ejs', {
        restNonce: signedIn ? ctx.auth.nonces.create(signedIn, 'svc_nonce') : '',
        ...storyView(site, report, reports),
        siteName: site.name,
        siteId: site.id === DEFAULT_SITE_ID ? '' : String(site.id),
        token: link.token,
        apiPath: ctx.config.apiPath,
        style: await ctx.assets.versionedUrl(STORY_STYLE),
        script: await ctx.assets.versionedUrl(STORY_SCRIPT),
      });
    }

    if (link.report_id > 0 || !link.shared_tabs.includes(tab)) {
      return message(res, 403, { title: 'This page is not shared', message: 'The link you opened does not share this part of the dashboard.' });
    }
    await enter(req, link);
    const item = (await app.tabs()).find((t) => t.id === tab);
    if (!item) return message(res, 404, { title: 'This page is not available', message: 'This part of the dashboard is not available on this site.' });
    const permissions = await app.sessions.permissions(req, link);
    const asked = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1));
    const view = sharedView(asked, link, permissions);
    if (view.toString() !== asked.toString()) return res.redirect(302, `${basePath}${DASHBOARD_PATH}/${tab}/?${view.toString()}`);
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
    ctx.admin.serve(item.adminPath, req, res, next, {
      'share-token': link.token,
      ...(link.siteId === DEFAULT_SITE_ID ? {} : { site: String(link.siteId) }),
      'share-permissions': JSON.stringify({ can_change_date: permissions.can_change_date, can_filter: permissions.can_filter }),
    });
  });

  return router;
}
