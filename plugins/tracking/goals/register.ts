import { ok, type PluginContext } from '../../../core';
import { registerGoalRoutes } from '../routes/goals';
import { BlockGoals, parsePostBlocks } from './block-goals';
import type { GoalStore } from './goal-store';
import { HookGoals } from './hook-goals';

/** Goal definitions, hook goals and block-goal maintenance (tracking.md §4.1, §8.1). */
export function registerGoals(ctx: PluginContext, goals: GoalStore): HookGoals {
  registerGoalRoutes(ctx, goals);
  const hookGoals = new HookGoals({
    db: ctx.db,
    clock: ctx.clock,
    goals,
    headlessDomain: ctx.config.headlessDomain,
    currentRequest: () => ctx.http.currentRequest(),
  });
  ctx.hooks.declareAction('svc_goal_hook', ['hook_name', 'uid']);
  ctx.hooks.addAction('svc_goal_hook', async (hookName, uid) => {
    await hookGoals.handleHook(String(hookName), typeof uid === 'string' ? uid : '');
  });

  const blocks = new BlockGoals(ctx.db, ctx.clock, goals);
  ctx.rest.route({
    method: 'POST',
    path: '/goals/blocks/sync',
    capability: 'manage_svc_statistics',
    body: { limit: '256kb' },
    handler: async ({ site, body }) => ok(await blocks.sync(site.id, parsePostBlocks(body))),
  });
  ctx.hooks.addAction('svc_daily', async () => {
    const removed = await blocks.cleanUp();
    if (removed > 0) ctx.logger.info({ removed }, 'unsaved block goals removed');
  });
  return hookGoals;
}
