import { DateTime } from 'luxon';
import { ManualClock, SystemClock } from '../../clock';
import { RECURRING, isRecurringHook } from '../../scheduler/recurring';
import { UsageError, parseCommandArgs } from '../args';
import { type CoreCommand, withKernel } from '../runtime';

/** Rounds of `runDue` in one invocation; each round takes up to 100 events. */
const MAX_ROUNDS = 100;

/** An ISO-8601 time; without an offset it is read in the site timezone. */
function parseNow(raw: string, timezone: string): Date {
  const parsed = DateTime.fromISO(raw, { zone: timezone, setZone: true });
  if (!parsed.isValid) throw new UsageError(`--now is not an ISO-8601 time: ${raw}`);
  return parsed.toJSDate();
}

/**
 * `svc cron run [--now ISO] [--hook NAME]`: runs the single events due at
 * `--now`, or fires one recurring hook as if at `--now`. The kernel's clock
 * stands at `--now` for the whole run, so the handlers see that time too.
 */
export const cronCommand: CoreCommand = {
  name: 'cron',
  summary: 'run due scheduled events, or fire a recurring hook',
  usage: `run [--now ISO-8601] [--hook ${Object.keys(RECURRING).join('|')}]`,
  async run(args, rt) {
    const { values, positionals } = parseCommandArgs(args, ['now', 'hook'], { min: 1, max: 1 });
    if (positionals[0] !== 'run') throw new UsageError(`unknown subcommand ${positionals[0]}`);
    const hook = values.hook;
    if (hook !== undefined && !isRecurringHook(hook)) {
      throw new UsageError(`--hook must be one of ${Object.keys(RECURRING).join(', ')}`);
    }
    const clock = values.now === undefined ? new SystemClock() : new ManualClock(parseNow(values.now, rt.config.timezone));
    const at = clock.now().toISOString();
    return withKernel(
      rt,
      async (kernel) => {
        if (hook) {
          await kernel.scheduler.runRecurring(hook, clock.now(), true);
          await kernel.hooks.settled();
          rt.io.out(`${hook} ran at ${at}`);
          return 0;
        }
        let ran = 0;
        let dropped = 0;
        for (let round = 0; round < MAX_ROUNDS; round++) {
          const result = await kernel.scheduler.runDue(clock.unix());
          ran += result.ran;
          dropped += result.dropped;
          if (result.ran + result.dropped === 0) break;
        }
        await kernel.hooks.settled();
        rt.io.out(`${ran} due event(s) ran at ${at}${dropped ? `, ${dropped} dropped after repeated failures` : ''}`);
        return 0;
      },
      { clock },
    );
  },
};
