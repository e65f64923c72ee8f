import { definePlugin, SvcError } from '../../core';
import { followFlag } from './follow';
import { abilitiesEnabled, abilitiesSetting, statisticsAbilitiesSwitch } from './statistics';

/**
 * Loaded on every license, whether or not this plugin is: registers the
 * `enable_abilities_api` setting, and on a license without `SVC_PRO` (free)
 * the `svc-statistics` abilities themselves. The business plugin that runs
 * them is not loaded there, yet ecommerce.md §5 rule 5 has them answer
 * `svc_abilities_pro_required` (503): so while the option is on, this part
 * offers them with their description and permission check, and answers that
 * error to callers holding `manage_svc_statistics`. With `SVC_PRO` the plugin
 * registers them (business), or they are absent (creator: its license does
 * not load the plugin).
 */
export default definePlugin({
  name: 'abilities-gate',
  tier: 'free',
  async register(ctx) {
    ctx.settings.register(abilitiesSetting);
    if (ctx.config.pro) return;
    const proRequired = () =>
      Promise.reject(new SvcError('svc_abilities_pro_required', 'Sales and subscriptions data need a paid license (SVC_PRO).', 503));
    const stop = await followFlag(() => abilitiesEnabled(ctx.options), statisticsAbilitiesSwitch(ctx.abilities, ctx.sites, proRequired), ctx.logger);
    ctx.onStop(stop);
  },
});
