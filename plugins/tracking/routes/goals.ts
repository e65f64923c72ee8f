import { badRequest, ok, type PluginContext } from '../../../core';
import type { GoalStore } from '../goals/goal-store';

function goalId(raw: string | undefined): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) throw badRequest('id: must be a goal id.');
  return Number(raw);
}

/** Goal definitions over REST (`{api_base}/goals`): viewers read, managers change. */
export function registerGoalRoutes(ctx: PluginContext, goals: GoalStore): void {
  ctx.rest.route({ method: 'GET', path: '/goals', capability: 'view_svc_statistics', handler: async () => ok(await goals.list()) });
  ctx.rest.route({ method: 'GET', path: '/goals/active', capability: null, handler: async () => ok(await goals.activeGoals()) });
  ctx.rest.route({
    method: 'GET',
    path: '/goals/:id',
    capability: 'view_svc_statistics',
    handler: async ({ params }) => ok(await goals.get(goalId(params.id))),
  });
  ctx.rest.route({
    method: 'POST',
    path: '/goals',
    capability: 'manage_svc_statistics',
    body: { limit: '16kb' },
    handler: async ({ body }) => ok(await goals.create(body ?? {})),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    ctx.rest.route({
      method,
      path: '/goals/:id',
      capability: 'manage_svc_statistics',
      body: { limit: '16kb' },
      handler: async ({ params, body }) => ok(await goals.update(goalId(params.id), body ?? {})),
    });
  }
  ctx.rest.route({
    method: 'DELETE',
    path: '/goals/:id',
    capability: 'manage_svc_statistics',
    handler: async ({ params }) => {
      await goals.delete(goalId(params.id));
      return ok({ deleted: true });
    },
  });
}
