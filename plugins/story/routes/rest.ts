import { badRequest, ok, type PluginContext } from '../../../core';
import type { StoryApp } from '../app';
import { SHARE_SAFE } from '../route-meta';
import { type ShareInputDeps, parseShareInput } from '../services/share-input';
import { isTokenFormat } from '../shared/constants';

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;

/** What parsing `get_share_token` needs right now (the tabs follow the loaded plugins and the license). */
export async function shareInputDeps(ctx: PluginContext, app: StoryApp): Promise<ShareInputDeps> {
  return {
    now: ctx.clock.unix(),
    baseUrl: ctx.config.baseUrl,
    available: (await app.tabs()).map((t) => t.id),
    hooks: ctx.hooks,
    statistics: ctx.statistics,
  };
}

/**
 * The share operations of §4.2 (`manage_svc_statistics`, answered in the
 * spec's own shapes) and the story data endpoint of §4.1 (public: the token
 * in the body is the credential, checked before anything is read).
 */
export function registerShareRoutes(ctx: PluginContext, app: StoryApp): void {
  ctx.rest.route({
    method: 'POST',
    path: '/do_action/get_share_token',
    capability: 'manage_svc_statistics',
    body: { limit: '16kb' },
    handler: async ({ site, body }) => {
      const link = await app.tokens.create(site.id, await parseShareInput(body, await shareInputDeps(ctx, app)));
      return { share_token: link.token, share_url: link.url };
    },
  });

  ctx.rest.route({
    method: 'POST',
    path: '/do_action/revoke_share_link',
    capability: 'manage_svc_statistics',
    body: { limit: '4kb' },
    handler: async ({ site, body }) => {
      const token = field(body, 'token');
      if (!isTokenFormat(token)) throw badRequest('token: 32 lowercase hexadecimal characters', 'svc_invalid_share_token', { field: 'token' });
      const success = await app.tokens.revoke(site.id, token);
      return { success, share_links: await app.tokens.getShareLinks(site.id) };
    },
  });

  ctx.rest.route({
    method: 'POST',
    path: '/do_action/list_share_links',
    capability: 'manage_svc_statistics',
    body: { limit: '4kb' },
    handler: async ({ site }) => ({
      share_links: await app.tokens.getShareLinks(site.id),
      shareable_tabs: (await app.tabs()).map(({ id, title }) => ({ id, title })),
    }),
  });

  ctx.rest.route({
    method: 'POST',
    path: '/get_action/story-report-data',
    capability: null,
    meta: { [SHARE_SAFE]: true },
    body: { limit: '4kb' },
    handler: async ({ body }) => {
      const link = await app.tokens.resolve(field(body, 'token'));
      const reports = app.reports();
      if (!link || link.report_id === 0 || !reports) return ok([]);
      return ok((await reports.reportObject(link.siteId, link.report_id, { is_shared_link: true })) ?? []);
    },
  });
}
