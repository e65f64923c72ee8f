import { UsageError, parseJsonArg } from '../args';
import { type CoreCommand, withKernel } from '../runtime';

/**
 * `svc option get|set <key> [json]`. Keys of the settings page are validated
 * like the page does; a refused value is a usage error and nothing is stored.
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
        const offered = kernel.settings.list().some((f) => f.key === key);
        const value = offered ? await kernel.settings.get(key) : await kernel.options.get(key);
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
      if (kernel.settings.list().some((f) => f.key === key)) {
        const result = await kernel.settings.save({ [key]: value });
        if (!result.saved) throw new UsageError(`${key}: ${result.errors[key]}`);
      } else {
        await kernel.options.set(key, value);
      }
      rt.io.out(`${key} = ${JSON.stringify(value)}`);
      return 0;
    });
  },
};
