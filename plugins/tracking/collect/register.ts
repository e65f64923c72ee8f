import type { PluginContext } from '../../../core/plugins/context';
import { registerGeo } from '../geo/register';
import { registerGoals } from '../goals/register';
import { GoalStore } from '../goals/goal-store';
import { registerAjaxRoute } from '../routes/ajax';
import { registerTrackRoutes } from '../routes/track';
import { DomainWatch } from './domains';
import { HitWriter } from './hit-writer';
import { createInsertReturning } from './insert-returning';
import { LookupIds } from './lookups';
import { RotatingSalt } from './rotating-salt';
import { Tracker } from './tracker';
import { TrackingConfigCache } from './tracking-config';
import { AgentParser } from './user-agent';
import { VisitorStates } from './visitor-state';

/** Endpoints, pipeline, exclusions, goals, searches, external links and maintenance jobs of tracking.md. */
export async function registerCollection(ctx: PluginContext): Promise<void> {
  const config = new TrackingConfigCache(ctx);
  await config.materialise();
  const goals = new GoalStore(ctx.db, ctx.options, ctx.clock);
  await goals.init();
  const lookups = new LookupIds(ctx.db, ctx.cache);
  const tracker = new Tracker({
    config,
    hooks: ctx.hooks,
    clock: ctx.clock,
    logger: ctx.logger,
    debug: ctx.config.debug,
    transients: ctx.transients,
    agents: new AgentParser(),
    lookups,
    salt: new RotatingSalt(ctx.db, ctx.options, ctx.clock),
    states: new VisitorStates(ctx.db),
    writer: new HitWriter(ctx.db, await createInsertReturning(ctx.db), ctx.logger),
    goals,
    domains: new DomainWatch(ctx.options),
  });
  ctx.onStop(() => tracker.settled());
  await registerGeo(ctx);
  registerGoals(ctx, goals, tracker);
  registerTrackRoutes(ctx, tracker);
  registerAjaxRoute(ctx);
}
