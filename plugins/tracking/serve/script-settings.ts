import type { PluginContext } from '../../../core';

/** The settings of tracking.md §2.5 that decide how the scripts are offered. */
export interface ScriptSettings {
  /** Load deferred, after the page (turbo mode), instead of async. */
  turbo: boolean;
  /** Obfuscated file names served from the data folder (`ghost_mode` through `svc_obfuscate_filename`). */
  ghost: boolean;
  /** The `headless` setting or `SVC_HEADLESS_DOMAIN`: no script is offered. */
  headless: boolean;
  /** Options and tracker in one pre-built script. */
  combine: boolean;
}

const KEYS = ['enable_turbo_mode', 'ghost_mode', 'headless', 'combine_vars_and_script'] as const;

type Ctx = Pick<PluginContext, 'settings' | 'options' | 'hooks' | 'config'>;

/** Stores absent settings with their defaults, autoloaded, so reading them costs no query. */
export async function materialiseScriptSettings(ctx: Ctx): Promise<void> {
  for (const key of KEYS) {
    const field = ctx.settings.list().find((f) => f.key === key);
    if (field) await ctx.options.add(key, field.default, { autoload: true });
  }
}

export async function scriptSettings(ctx: Ctx): Promise<ScriptSettings> {
  const [turbo, ghost, headless, combine] = await Promise.all(KEYS.map((key) => ctx.settings.get<unknown>(key)));
  return {
    turbo: turbo === true,
    ghost: (await ctx.hooks.applyFilters('svc_obfuscate_filename', ghost === true)) === true,
    headless: headless === true || ctx.config.headlessDomain !== null,
    combine: combine === true,
  };
}
