import type { PluginContext } from '../../../core';
import { registerDemo } from '../demo/demo-command';
import { registerGeo } from '../geo/register';
import { GoalStore } from '../goals/goal-store';
import { renderBlockGoal } from '../goals/block-goals';
import { registerGoals } from '../goals/register';
import type { TrackingService } from '../hooks';
import { registerExternalLinks } from '../links/register';
import { registerAjaxRoute } from '../routes/ajax';
import { registerStatusRoutes } from '../routes/status';
import { registerTrackRoutes } from '../routes/track';
import { TrackingOptionsBuilder } from '../options/tracking-options';
import { registerSearch } from '../search/register';
import { TransportStatusService } from '../status/transport-status';
import { DomainWatch } from './domains';
import { DropLog } from './drop-log';
import { HitHeaders } from './hit-headers';
import { HitStatements } from './hit-statements';
import { HitWriter } from './hit-writer';
import { removeJunkBrowsers } from './junk-browsers';
import { LookupIds } from './lookups';
import { RotatingSalt } from './rotating-salt';
import { SiteOfHit } from './site-of-hit';
import { removeSitePageviewJoins } from './site-removal';
import { Tracker } from './tracker';
import { TrackingConfigCache } from './tracking-config';
import { AgentParser } from './user-agent';
import { VisitorStates } from './visitor-state';

/** Endpoints, pipeline, exclusions, goals, searches, external links and maintenance jobs of tracking.md; answers the log of dropped hits. */
export async function registerCollection(ctx: PluginContext): Promise<DropLog> {
  const config = new TrackingConfigCache(ctx);
  await config.materialise();
  const goals = new GoalStore(ctx.db, ctx.options, ctx.clock);
  await goals.init();
  const drops = new DropLog(ctx.db, ctx.clock, ctx.logger);
  const statements = await HitStatements.create(ctx.db);
  const hitHeaders = new HitHeaders();
  const tracker = new Tracker({
    config,
    hooks: ctx.hooks,
    clock: ctx.clock,
    logger: ctx.logger,
    debug: ctx.config.debug,
    transients: ctx.transients,
    agents: new AgentParser(),
    lookups: new LookupIds(ctx.db, ctx.cache),
    salt: new RotatingSalt(ctx.options, ctx.clock),
    states: new VisitorStates(ctx.db, statements),
    writer: new HitWriter(ctx.db, statements, ctx.logger),
    goals,
    domains: new DomainWatch(ctx.options),
    drops,
    sites: new SiteOfHit(ctx.sites),
    hitHeaders,
    clientAddress: ctx.http.clientAddress,
  });
  ctx.onStop(async () => {
    await tracker.settled();
    await drops.settled();
  });

  await registerGeo(ctx, hitHeaders);
  const hookGoals = registerGoals(ctx, goals);
  const searches = registerSearch(ctx, tracker);
  await registerExternalLinks(ctx, config);
  const status = new TransportStatusService({ options: ctx.options, clock: ctx.clock, config: ctx.config, logger: ctx.logger });
  registerStatusRoutes(ctx, status);
  registerTrackRoutes(ctx, tracker);
  registerAjaxRoute(ctx);
  registerDemo(ctx, tracker, goals);
  const options = new TrackingOptionsBuilder({ config: ctx.config, hooks: ctx.hooks, settings: config, goals, status: () => status.get() });

  ctx.hooks.addAction('svc_weekly', async () => {
    const removed = await removeJunkBrowsers(ctx.db, ctx.cache);
    if (removed.browsers > 0) ctx.logger.info(removed, 'junk browsers removed');
  });
  ctx.hooks.addAction('svc_daily', async () => {
    await drops.purge();
  });
  ctx.sites.onRemove((siteId) => removeSitePageviewJoins(ctx.db, siteId));

  const service: TrackingService = {
    track: async (payload, request, time) => tracker.track(payload, request, time),
    handleHook: (hookName, uid) => hookGoals.handleHook(hookName, uid),
    captureSearchAndPosts: (posts, query) => searches.captureSearchAndPosts(posts, query),
    linkPendingSearch: (id, statistic) => searches.linkPendingSearch(id, statistic),
    renderBlockGoal,
    transportStatus: () => status.get(),
    trackingOptions: (page) => options.build(page),
  };
  ctx.services.provide('tracking', service);
  return drops;
}
