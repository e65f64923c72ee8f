import { followFlag } from './follow';
import { abilitiesEnabled, statisticsAbilitiesSwitch } from './statistics';
import { definePlugin } from '../../core';
import { datatableExecutor } from './execute';
import { AbilityRateLimits } from './rate-limit';

/**
 * Business tier: the abilities `svc/sales-data` and `svc/subscriptions-data`
 * (ecommerce.md §4.5) over the sales datatables, registered while the option
 * `enable_abilities_api` is on, on REST and as MCP tools.
 */
export default definePlugin({
  name: 'abilities',
  tier: 'business',
  requires: ['sales'],
  async register(ctx) {
    const sales = ctx.services.require('sales');
    const execute = datatableExecutor({ sales, limits: new AbilityRateLimits(ctx), sites: ctx.sites, logger: ctx.logger });
    const stop = await followFlag(() => abilitiesEnabled(ctx.options), statisticsAbilitiesSwitch(ctx.abilities, ctx.sites, execute), ctx.logger);
    ctx.onStop(stop);
  },
});
