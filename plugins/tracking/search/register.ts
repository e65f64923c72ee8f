import { ANONYMOUS, badRequest, corsMiddleware, type PluginContext } from '../../../core';
import { cleanId } from '../collect/payload';
import { cleanText, hostOf } from '../collect/text';
import type { HitRequest, Tracker } from '../collect/tracker';
import { trackingCors } from '../routes/cors';
import { siteLocales } from './search-filters';
import { type SearchOutcome, SearchStore } from './search-store';

export interface SearchQuery {
  search_term?: unknown;
  /** The platform's name for the term. */
  s?: unknown;
  /** Total matches when the search calculated them. */
  found_rows?: unknown;
  uid?: unknown;
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);

/** Search capture and linking (tracking.md §4.1, §7, §8.1). */
export function registerSearch(ctx: PluginContext, tracker: Tracker): SearchStore & { captureSearchAndPosts: <T>(posts: T[], query: SearchQuery) => Promise<T[]> } {
  const store = new SearchStore(ctx.db, ctx.hooks, ctx.clock, ctx.logger, siteLocales());

  // Most pageviews carry no search: nothing to wait for then.
  ctx.hooks.addAction('svc_after_create_statistic', (id, statistic) => (statistic.search_term ? store.linkPendingSearch(id, statistic).then(() => undefined) : undefined));
  ctx.hooks.addAction('svc_daily', async () => {
    const removed = await store.cleanUp();
    ctx.logger.info(removed, 'unlinked searches cleaned up');
  });

  /** Runs the tracking exclusions on the request, then stores the search. */
  const capture = async (request: HitRequest, term: unknown, results: number | null, uid: string, page = '', userAgent = '', siteId: number | null = null): Promise<SearchOutcome> => {
    const outcome = await tracker.screen(request, { url: page, parameters: '', referrer: '', user_agent: userAgent }, siteId);
    if (outcome !== null) return { stored: false, reason: 'excluded' };
    return store.capture(term, results, uid, siteId);
  };

  /** `capture_search_and_posts(posts, query)`: records the search with its result count, returns the posts unmodified. */
  const captureSearchAndPosts = async <T>(posts: T[], query: SearchQuery): Promise<T[]> => {
    const term = query.search_term ?? query.s;
    if (typeof term !== 'string' || term.trim() === '') return posts;
    const req = ctx.http.currentRequest();
    const request: HitRequest = { headers: req?.headers ?? {}, remoteAddress: req?.socket.remoteAddress, principal: req?.principal ?? ANONYMOUS };
    const uid = cleanId(query.uid) || cleanId(req?.headers.cookie?.match(/(?:^|;\s*)svc_uid=([^;]+)/)?.[1]);
    await capture(request, term, count(query.found_rows) ?? posts.length, uid);
    return posts;
  };

  ctx.rest.route({
    method: 'POST',
    path: '/track/search',
    capability: null,
    body: { limit: '16kb', types: ['application/json', 'text/plain'] },
    before: [corsMiddleware(trackingCors(ctx.config))],
    handler: async (req) => {
      const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
      if (typeof body.search_term !== 'string') throw badRequest('search_term: required text.', 'svc_invalid_search');
      const page = typeof body.url === 'string' && hostOf(body.url) ? body.url : '';
      const outcome = await capture(
        { headers: req.headers, remoteAddress: req.raw.socket.remoteAddress, principal: req.principal },
        body.search_term,
        count(body.results),
        cleanId(body.uid),
        page,
        // A site's server forwarding the search passes its visitor's user agent.
        cleanText(body.user_agent, 1000),
        // Named by `site`: the visitor's pageview on that site; else on any.
        body.site !== undefined || req.query.site !== undefined ? req.site.id : null,
      );
      return ctx.config.debug ? { success: true, outcome } : { success: true };
    },
  });
  return Object.assign(store, { captureSearchAndPosts });
}
