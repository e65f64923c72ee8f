import { DateTime } from 'luxon';

/** The kernel's recurring hooks and their cron rules, evaluated in the site timezone. */
export const RECURRING = Object.freeze({
  svc_every_hour: '0 * * * *',
  svc_daily: '5 0 * * *',
  svc_weekly: '15 0 * * 1',
} as const);

export type RecurringHook = keyof typeof RECURRING;

export function isRecurringHook(name: string): name is RecurringHook {
  return Object.prototype.hasOwnProperty.call(RECURRING, name);
}

/** Unix start of the hour, day or ISO week that contains `at` in `timezone`: one claim per slot. */
export function lastSlot(hook: RecurringHook, at: Date, timezone: string): number {
  const local = DateTime.fromJSDate(at, { zone: timezone });
  const unit = hook === 'svc_every_hour' ? 'hour' : hook === 'svc_daily' ? 'day' : 'week';
  return Math.floor(local.startOf(unit).toSeconds());
}
