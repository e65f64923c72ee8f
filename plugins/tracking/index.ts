import { definePlugin } from '../../core';
import { registerCollection } from './collect/register';
import { registerFunnels } from './funnels/register';
import { registerOnboardingRoute } from './routes/onboarding';
import { trackingMigrations } from './migrations';
import { registerTrackerScripts } from './serve/register';
import { registerStatisticsTab } from './statistics/register';

/** Free tier: the collection pipeline (tracking.md) and the statistics tab. */
export default definePlugin({
  name: 'tracking',
  tier: 'free',
  migrations: trackingMigrations,
  async register(ctx) {
    const drops = await registerCollection(ctx);
    await registerTrackerScripts(ctx);
    await registerStatisticsTab(ctx);
    registerFunnels(ctx);
    registerOnboardingRoute(ctx, drops);
  },
});
