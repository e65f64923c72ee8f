import { definePlugin } from '../../core';
import { ADMIN_SCRIPT, registerAdminPages } from './admin/pages';
import { createStoryApp } from './app';
import { registerShareHooks } from './route-meta';
import { storyMigrations } from './migrations';
import { createAdminGuard } from './routes/admin-guard';
import { STORY_SCRIPT, STORY_STYLE, UPGRADE_SCRIPT, createDashboardRouter } from './routes/pages';
import { registerShareRoutes } from './routes/rest';
import { shareService } from './services/share-service';
import { DASHBOARD_PATH } from './shared/constants';

/** Creator tier: share links, viewer sessions and the story dashboard (reports-and-share-links.md §2.4-§9). */
export default definePlugin({
  name: 'story',
  tier: 'creator',
  migrations: storyMigrations,
  async register(ctx) {
    const app = createStoryApp(ctx);
    const { revokedPasswords } = await app.viewer.prepare();
    if (revokedPasswords > 0) ctx.logger.warn({ revokedPasswords }, 'application passwords of the share viewer account were deleted');
    for (const entry of [STORY_SCRIPT, STORY_STYLE, UPGRADE_SCRIPT, ADMIN_SCRIPT]) ctx.assets.register({ entry });
    registerShareHooks(ctx, app);
    registerShareRoutes(ctx, app);
    registerAdminPages(ctx, app);
    ctx.http.mount(DASHBOARD_PATH, createDashboardRouter(ctx, app), { session: true });
    ctx.http.mount('/svc-admin', createAdminGuard(ctx, app), { session: true });
    ctx.services.provide('story', { reportLink: (siteId, reportId) => app.tokens.reportLink(siteId, reportId) });
    ctx.services.provide('share', shareService(app.tokens, ctx.sites));
  },
});
