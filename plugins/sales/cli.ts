import { UsageError, parseCommandArgs } from '../../core/cli/args';
import type { SalesCore } from './core';

/** `svc sales backfill <integration>`: runs an integration's backfill again (after one was abandoned, or to rebuild). */
export function registerSalesCommand(core: SalesCore): void {
  core.ctx.cli.command({
    name: 'sales',
    summary: 'Run the subscription backfill of an integration again',
    usage: 'backfill <integration>',
    async run(args, io) {
      const { positionals } = parseCommandArgs(args, [], { min: 2, max: 2 });
      const [action, id] = positionals as [string, string];
      if (action !== 'backfill') throw new UsageError(`unknown action ${action}`);
      const integration = core.integrations.get(id);
      if (!integration) throw new UsageError(`no integration named ${id}; known: ${core.integrations.all().map((i) => i.id).join(', ')}`);
      if (!(await integration.isActive())) {
        io.err(`${id} is not active: fill in its settings first.`);
        return 1;
      }
      await core.integrations.forget(id);
      await core.checkIntegrations();
      const progress = await core.backfill.progress();
      io.out(progress.is_processing ? `backfill of ${id} scheduled: ${progress.total} days` : `${id} has no subscription history to backfill`);
      return 0;
    },
  });
}
