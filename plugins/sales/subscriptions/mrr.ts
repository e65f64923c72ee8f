import type { BillingPeriod } from '../contract';

/** Billing cycles per month for each period (a year has 365 days and 52 weeks). */
const PER_MONTH: Readonly<Record<BillingPeriod, number>> = { day: 365 / 12, week: 52 / 12, month: 1, year: 1 / 12 };

/** The amount billed every `interval` `period`s, normalised to one month. */
export function monthly(amount: number, period: BillingPeriod, interval: number): number {
  return (amount * PER_MONTH[period]) / interval;
}
