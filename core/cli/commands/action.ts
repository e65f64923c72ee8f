import type { SvcActions } from '../../../hooks';
import type { ActionName } from '../../hooks/registry';
import { UsageError, parseJsonArg } from '../args';
import { type CoreCommand, withKernel } from '../runtime';

/** `svc action <hook> [json-arg ...]`: fires a documented (or plugin-declared) action with JSON arguments. */
export const actionCommand: CoreCommand = {
  name: 'action',
  summary: "fire an action, e.g. svc action svc_create_report_from_onboarding '\"owner@example.com\"'",
  usage: '<hook> [json-arg ...]',
  async run(args, rt) {
    const [hook, ...rawArgs] = args;
    if (!hook) throw new UsageError('missing the hook name');
    const values = rawArgs.map((raw, i) => parseJsonArg(raw, `argument ${i + 1}`));
    return withKernel(rt, async (kernel) => {
      const names = kernel.hooks.actionArgs(hook);
      if (!names) throw new UsageError(`unknown action ${hook}`);
      if (values.length !== names.length) {
        throw new UsageError(`${hook} takes ${names.length} argument(s)${names.length ? ` (${names.join(', ')})` : ''}, got ${values.length}`);
      }
      await kernel.hooks.doAction(hook as ActionName, ...(values as SvcActions[ActionName]));
      await kernel.hooks.settled();
      rt.io.out(`${hook} done`);
      return 0;
    });
  },
};
