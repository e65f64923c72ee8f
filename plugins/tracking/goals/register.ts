import type { PluginContext } from '../../../core/plugins/context';
import type { Tracker } from '../collect/tracker';
import { registerGoalRoutes } from '../routes/goals';
import type { GoalStore } from './goal-store';

/** Goal definitions, hook goals and block-goal maintenance (tracking.md §4.1, §8.1). */
export function registerGoals(ctx: PluginContext, goals: GoalStore, _tracker: Tracker): void {
  registerGoalRoutes(ctx, goals);
}
