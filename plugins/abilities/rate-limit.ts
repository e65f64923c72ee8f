import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { createRateLimiter, RateLimiterRes } from '../../core/db/rate-limiter';
import { SvcError, describeError, tooManyRequests } from '../../core/errors';
import type { PluginContext } from '../../core/plugins/context';

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
  private readonly limiters = new Map<string, Promise<RateLimiterAbstract>>();

  constructor(private readonly ctx: Pick<PluginContext, 'db' | 'hooks' | 'logger'>) {}

  /** Takes one run from `userId`'s budget for `ability`: 429 when it is spent, 503 when the counters cannot be reached. */
  async consume(ability: string, userId: number): Promise<void> {
    const max = positive(await this.ctx.hooks.applyFilters('svc_abilities_rate_limit_max', DEFAULT_MAX, ability), DEFAULT_MAX);
    const window = positive(await this.ctx.hooks.applyFilters('svc_abilities_rate_limit_window', DEFAULT_WINDOW, ability), DEFAULT_WINDOW);
    try {
      await (await this.limiter(ability, max, window)).consume(String(userId), 1);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const wait = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw tooManyRequests(`At most ${max} runs of ${ability} per ${window} seconds; try again in ${wait} s.`, 'svc_abilities_rate_limited', wait);
      }
      this.ctx.logger.error({ err, ability }, `ability rate limit unavailable: ${describeError(err)}`);
      throw new SvcError('svc_abilities_unavailable', 'The abilities cannot run right now; the problem has been logged.', 503);
    }
  }

  private limiter(ability: string, max: number, window: number): Promise<RateLimiterAbstract> {
    const key = `${ability}:${max}:${window}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = createRateLimiter(this.ctx.db, { keyPrefix: `ability_${ability}_${window}`, points: max, duration: window });
      limiter.catch(() => this.limiters.delete(key));
      this.limiters.set(key, limiter);
    }
    return limiter;
  }
}
