import { ANONYMOUS, forbidden, type PluginContext, Priority } from '../../core';
import type { StoryApp } from './app';
import { decideAccess } from './services/access';
import { licensed } from './services/tabs';
import { isViewer } from './services/viewer';
import { STORY_TAB, isShareTab } from './shared/constants';

/** Route meta of the story plugin's routes a share session may call besides data routes. */
export const SHARE_SAFE = 'shareSafe';

/**
 * The story plugin's taps: the `story` report format, the share session's
 * menu, its token header standing in for the nonce, the access guard on every
 * REST request of a viewer, and the daily end of viewer sessions.
 */
export function registerShareHooks(ctx: PluginContext, app: StoryApp): void {
  ctx.hooks.addFilter('svc_report_formats', (formats) => [...formats, STORY_TAB]);

  // Second pass over the menu, after everyone else: a share session sees only its link's tabs (§5 rule 8).
  ctx.hooks.addFilter(
    'svc_menu',
    async (menu) => {
      const req = ctx.http.currentRequest();
      if (!req || !isViewer(req.principal ?? ANONYMOUS)) return menu;
      const link = await app.sessions.sessionLink(req);
      if (!link) return [];
      return menu.filter((item) => item.shareable && isShareTab(item.id) && link.shared_tabs.includes(item.id) && licensed(item.id, app.business));
    },
    { priority: Priority.LAST },
  );

  // For a viewer, the session's own token in X-Svc-Share-Token counts as the nonce (§5 rule 6); the link itself is checked next.
  ctx.hooks.addFilter('svc_verify_nonce', (valid, _nonce, action) => {
    if (valid || action !== 'svc_nonce') return valid;
    const req = ctx.http.currentRequest();
    return Boolean(req && isViewer(req.principal ?? ANONYMOUS) && app.sessions.headerMatches(req));
  });

  // Runs last, on the route that actually runs: the final word on a viewer's request, and the forced limits stay as set.
  ctx.hooks.addFilter(
    'svc_rest_pre_dispatch',
    async (denial, request) => {
      if (!isViewer(request.principal)) return denial;
      const state = await app.sessions.check(request.raw, request.raw.res!);
      // The story data endpoint checks its own token and reads nothing of the session.
      if (request.route.plugin === ctx.name && request.route.meta[SHARE_SAFE] === true) return denial;
      if ('error' in state) return state.error;
      if (denial) return denial;
      if (!app.sessions.headerMatches(request.raw)) {
        return forbidden('A shared view sends its link token in the X-Svc-Share-Token header.', 'svc_share_token_missing');
      }
      const permissions = await app.sessions.permissions(request.raw, state.link);
      return decideAccess(request, state.link, permissions, { reports: app.reports, business: app.business, clock: ctx.clock });
    },
    { priority: Priority.LAST },
  );

  ctx.hooks.addAction('svc_daily', async () => {
    const sessions = await app.viewer.endAllSessions();
    const purged = await app.tokens.purge();
    ctx.logger.info({ sessions, ...purged }, 'viewer sessions ended; expired and orphaned share tokens removed');
  });
}
