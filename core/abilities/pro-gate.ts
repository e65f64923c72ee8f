import type { Kernel } from '../kernel';
import { SvcError } from '../errors';
import { followFlag } from './follow';
import { abilitiesEnabled, abilitiesSetting, statisticsAbilitiesSwitch } from './statistics';

/**
 * Registers the `enable_abilities_api` setting, and on a license without
 * `SVC_PRO` (free) the `svc-statistics` abilities themselves: the business
 * `abilities` plugin that runs them is not loaded there, yet ecommerce.md §5
 * rule 5 has them answer `svc_abilities_pro_required` (503). So while the
 * option is on, the kernel offers them with their description and permission
 * check, and answers that error to callers holding `manage_svc_statistics`.
 * With `SVC_PRO` the plugin registers them (business), or they are absent
 * (creator: its license does not load the plugin).
 */
export async function registerStatisticsAbilities(kernel: Pick<Kernel, 'config' | 'settings' | 'options' | 'abilities' | 'users' | 'logger' | 'onStop'>): Promise<void> {
  kernel.settings.register(abilitiesSetting);
  if (kernel.config.pro) return;
  const proRequired = () =>
    Promise.reject(new SvcError('svc_abilities_pro_required', 'Sales and subscriptions data need a paid license (SVC_PRO).', 503));
  const stop = await followFlag(
    () => abilitiesEnabled(kernel.options),
    statisticsAbilitiesSwitch(kernel.abilities, kernel.users, proRequired),
    kernel.logger.child({ service: 'abilities' }),
  );
  kernel.onStop(stop);
}
