import { describeError, type PluginContext, RateLimiter, SvcError, tooManyRequests } from '../../core';

/** ecommerce.md §8: 30 runs per 60-second window, per user and ability. */
export const DEFAULT_MAX = 30;
export const DEFAULT_WINDOW = 60;

/** A filter's answer when it is a whole number of at least 1, else the default. */
const positive = (value: unknown, fallback: number): number => (Number.isInteger(value) && (value as number) >= 1 ? (value as number) : fallback);

/**
 * Per-user budgets of ability runs, counted in `{prefix}svc_rate_limits` so
 * that every app node draws from the same one. Max and window come through
 * `svc_abilities_rate_limit_max` / `_window` on each run; a window of another
 * length counts separately.
 */
export class AbilityRateLimits {
  private readonly limiter: RateLimiter;

  constructor(private readonly ctx: Pick<PluginContext, 'db' | 'hooks' | 'logger' | 'clock'>) {
    this.limiter = new RateLimiter(ctx.db, ctx.clock);
  }

  /** Takes one run from `userId`'s budget for `ability`: 429 when it is spent, 503 when the counters cannot be reached. */
  async consume(ability: string, userId: number): Promise<void> {
    const max = positive(await this.ctx.hooks.applyFilters('svc_abilities_rate_limit_max', DEFAULT_MAX, ability), DEFAULT_MAX);
    const window = positive(await this.ctx.hooks.applyFilters('svc_abilities_rate_limit_window', DEFAULT_WINDOW, ability), DEFAULT_WINDOW);
    let count;
    try {
      count = await this.limiter.hit({ name: `ability_${ability}_${window}`, max, window }, String(userId));
    } catch (err) {
      this.ctx.logger.error({ err, ability }, `ability rate limit unavailable: ${describeError(err)}`);
      throw new SvcError('svc_abilities_unavailable', 'The abilities cannot run right now; the problem has been logged.', 503);
    }
    if (!count.allowed) {
      throw tooManyRequests(`At most ${max} runs of ${ability} per ${window} seconds; try again in ${count.retryAfter} s.`, 'svc_abilities_rate_limited', count.retryAfter);
    }
  }
}
