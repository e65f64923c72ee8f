import { Router } from 'express';
import { ANONYMOUS, type PluginContext } from '../../../core';
import type { StoryApp } from '../app';
import { shareUrl } from '../services/share-urls';
import { isViewer } from '../services/viewer';
import { STORY_TAB } from '../shared/constants';
import { GONE, STORY_STYLE, sharePage } from './pages';

/**
 * Runs before the admin area for share sessions: the viewer never sees an
 * admin page at its own address. A shared tab's page (or the start page)
 * sends it to the share URL of that tab; sign-out and the stylesheet pass;
 * everything else is refused.
 */
export function createAdminGuard(ctx: PluginContext, app: StoryApp): Router {
  const router = Router();
  router.use(async (req, res, next) => {
    if (!isViewer(req.principal ?? ANONYMOUS)) return next();
    if ((req.method === 'POST' && req.path === '/logout') || req.path.startsWith('/assets/')) return next();
    const style = await ctx.assets.versionedUrl(STORY_STYLE);
    const state = await app.sessions.check(req, res);
    if ('error' in state) return sharePage(res, 401, 'message.ejs', { ...GONE, style });
    const { link } = state;
    const { basePath } = ctx.config;
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    if (link.report_id > 0) return res.redirect(302, shareUrl(basePath, STORY_TAB, link.token));
    const tabs = (await app.tabs()).filter((t) => link.shared_tabs.includes(t.id));
    const path = req.path.replace(/\/+$/, '');
    const tab = path === '' ? tabs[0] : tabs.find((t) => t.adminPath === path);
    if (tab) return res.redirect(302, shareUrl(basePath, tab.id, link.token, query));
    return sharePage(res, 403, 'message.ejs', { title: 'Not part of this shared view', message: 'The link you opened does not share this page.', style });
  });
  return router;
}
