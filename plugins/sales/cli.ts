import { type CliIO, parseCommandArgs, UsageError } from '../../core';
import { BACKFILL_HOOK } from './backfill/backfill';
import type { SalesApp } from './app';

/** Longest pause between two looks while a step waits for its time (a retry) or runs on another node. */
const MAX_WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Works through the backfill of `id` from this process (steps are claimed
 * like the scheduler claims them, so a server running them too is fine),
 * printing its progress, until it ends; answers the exit code.
 */
async function follow(app: SalesApp, id: string, io: CliIO): Promise<number> {
  const { ctx, backfill } = app;
  for (let state = await backfill.running(id); state; state = await backfill.running(id)) {
    const label = state.phase === 'aggregate' ? `adding up ${state.processed}/${state.total} days` : `listing the history, page ${(state.pages ?? 0) + 1}`;
    io.progress((await backfill.percentOf(id)) ?? 100, 100, label);
    const { ran } = await ctx.scheduler.runDue(undefined, BACKFILL_HOOK);
    if (ran > 0) continue;
    const [next] = (await ctx.scheduler.pending(BACKFILL_HOOK)).filter((e) => e.args[0] === id);
    await sleep(Math.min(MAX_WAIT_MS, Math.max(200, ((next?.runAt ?? 0) - ctx.clock.unix()) * 1000)));
  }
  const outcome = await backfill.lastOutcome(id);
  if (outcome?.outcome === 'abandoned') {
    io.err(`svc: the backfill of ${id} was abandoned after repeated failures: ${outcome.message}`);
    return 1;
  }
  io.progress(100, 100, 'done');
  io.out(`backfill of ${id} finished: ${outcome?.days ?? 0} days of subscription history`);
  return 0;
}

/**
 * `svc sales backfill <integration> [--detach]`: runs an integration's
 * backfill again (after one was abandoned, or to rebuild) and follows it
 * until it ends; a backfill already under way is followed, not started
 * over. `--detach` leaves it to the scheduler of the running server.
 */
export function registerSalesCommand(app: SalesApp): void {
  app.ctx.cli.command({
    name: 'sales',
    summary: 'Run the subscription backfill of an integration again and follow it',
    usage: 'backfill <integration> [--detach]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, [], { min: 2, max: 2 }, ['detach']);
      const [action, id] = positionals as [string, string];
      if (action !== 'backfill') throw new UsageError(`unknown action ${action}`);
      const integration = app.integrations.get(id);
      if (!integration) throw new UsageError(`no integration named ${id}; known: ${app.integrations.all().map((i) => i.id).join(', ')}`);
      if (!(await integration.isActive())) {
        io.err(`${id} is not active: fill in its settings first.`);
        return 1;
      }
      const detach = values.detach === 'true';
      if (await app.backfill.running(id)) {
        io.err(`a backfill of ${id} is already running (${await app.backfill.percentOf(id)} %); it is not started over.`);
      } else {
        await app.integrations.forget(id);
        await app.checkIntegrations();
        const state = await app.backfill.running(id);
        if (!state) {
          io.out(`${id} has no subscription history to backfill`);
          return 0;
        }
        io.err(`backfill of ${id} started: ${state.total} days`);
      }
      if (detach) {
        io.out(`backfill of ${id} scheduled: a running server works through it; \`svc sales backfill ${id}\` follows it (or does the work itself)`);
        return 0;
      }
      return follow(app, id, io);
    },
  });
}
