import { UsageError, parseJsonArg } from '../args';
import { type CoreCommand, withKernel } from '../runtime';

/**
 * `svc option get|set <key> [json]`. Keys of the settings page are validated
 * like the page does, and so are another site's values of its per-site fields
 * (`<key>:site:<id>`); a refused value is a usage error and nothing is stored.
 */
export const optionCommand: CoreCommand = {
  name: 'option',
  summary: 'read or write a site option (JSON values)',
  usage: 'get <key> | set <key> <json>',
  async run(args, rt) {
    const [sub, key, raw, ...extra] = args;
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
    if (!key) throw new UsageError('missing arguments');
    if (sub === 'get') {
      if (raw !== undefined) throw new UsageError(`unexpected argument ${raw}`);
      return withKernel(rt, async (kernel) => {
        const setting = kernel.settings.optionSetting(key);
        const value = setting ? await kernel.settings.get(setting.key, setting.siteId) : await kernel.options.get(key);
        if (value === undefined) {
          rt.io.err(`option ${key} is not set`);
          return 1;
        }
        rt.io.out(JSON.stringify(value));
        return 0;
      });
    }
    if (sub !== 'set') throw new UsageError(sub ? `unknown subcommand ${sub}` : 'missing arguments');
    if (raw === undefined) throw new UsageError('missing the JSON value');
    const value = parseJsonArg(raw, 'the value');
    return withKernel(rt, async (kernel) => {
      const setting = kernel.settings.optionSetting(key);
      if (setting) {
        if (!(await kernel.sites.get(setting.siteId))) throw new UsageError(`${key}: there is no site ${setting.siteId}`);
        const result = await kernel.settings.save({ [setting.key]: value }, setting.siteId);
        if (!result.saved) throw new UsageError(`${key}: ${result.errors[setting.key]}`);
      } else {
        await kernel.options.set(key, value);
      }
      rt.io.out(`${key} = ${JSON.stringify(value)}`);
      return 0;
    });
  },
};
