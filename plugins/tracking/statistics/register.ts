import type { PluginContext } from '../../../core';
import { registerDashboard } from './dashboard';
import { registerDataTypes } from './data-types';
import { registerDatatables } from './datatables';

/** The statistics tab: its menu item, dashboard page, free data types and `svc statistics`. */
export async function registerStatisticsTab(ctx: PluginContext): Promise<void> {
  registerDataTypes(ctx);
  registerDatatables(ctx);
  registerDashboard(ctx);
  ctx.cli.command({
    name: 'statistics',
    summary: 'Maintain the daily statistics summaries',
    usage: 'rebuild',
    async run(args, io) {
      if (args.length !== 1 || args[0] !== 'rebuild') {
        io.err('usage: svc statistics rebuild');
        return 2;
      }
      const days = await ctx.statistics.rebuild((done, total) => io.progress(done, total, 'days folded'));
      io.out(`rebuilt the summaries of ${days} day${days === 1 ? '' : 's'}`);
      return 0;
    },
  });
}
