import { DateTime } from 'luxon';
import type { Clock, Options } from '../../core';

export const ACTIVATION_OPTION = 'svc_sales_activated';

/**
 * The date ecommerce tracking was activated (ecommerce.md §4.2 clamping):
 * the site-timezone day the sales plugin first started, moved back to the day
 * of the earliest order or visitor event ever ingested (imported history).
 */
export class Activation {
  constructor(
    private readonly options: Options,
    private readonly clock: Clock,
    private readonly timezone: string,
  ) {}

  private dayOf(unix: number): number {
    return DateTime.fromSeconds(unix, { zone: this.timezone }).startOf('day').toSeconds();
  }

  /** Records today as the activation day unless one is stored. */
  async init(): Promise<void> {
    await this.options.add(ACTIVATION_OPTION, this.dayOf(this.clock.unix()));
  }

  async day(): Promise<number> {
    return this.options.get<number>(ACTIVATION_OPTION, this.dayOf(this.clock.unix()));
  }

  /** Moves the activation day back when events older than it arrive. */
  async noteEvents(earliest: number): Promise<void> {
    const day = this.dayOf(earliest);
    if (day < (await this.day())) await this.options.set(ACTIVATION_OPTION, day);
  }
}
