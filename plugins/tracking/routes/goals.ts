import { badRequest, ok, type PluginContext } from '../../../core';
import type { GoalStore } from '../goals/goal-store';

function goalId(raw: string | undefined): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) throw badRequest('id: must be a goal id.');
  return Number(raw);
}

/** Goal definitions of the request's site over REST (`{api_base}/goals`): viewers read, managers change. */
export function registerGoalRoutes(ctx: PluginContext, goals: GoalStore): void {
  ctx.rest.route({ method: 'GET', path: '/goals', capability: 'view_svc_statistics', handler: async ({ site }) => ok(await goals.list(site.id)) });
  ctx.rest.route({ method: 'GET', path: '/goals/active', capability: null, handler: async ({ site }) => ok(await goals.activeGoals(site.id)) });
  ctx.rest.route({
    method: 'GET',
    path: '/goals/:id',
    capability: 'view_svc_statistics',
    handler: async ({ site, params }) => ok(await goals.get(site.id, goalId(params.id))),
  });
  ctx.rest.route({
    method: 'POST',
    path: '/goals',
    capability: 'manage_svc_statistics',
    body: { limit: '16kb' },
    handler: async ({ site, body }) => ok(await goals.create(site.id, body ?? {})),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    ctx.rest.route({
      method,
      path: '/goals/:id',
      capability: 'manage_svc_statistics',
      body: { limit: '16kb' },
      handler: async ({ site, params, body }) => ok(await goals.update(site.id, goalId(params.id), body ?? {})),
    });
  }
  ctx.rest.route({
    method: 'DELETE',
    path: '/goals/:id',
    capability: 'manage_svc_statistics',
    handler: async ({ site, params }) => {
      await goals.delete(site.id, goalId(params.id));
      return ok({ deleted: true });
    },
  });
}
