/** Limits and defaults of reports-and-share-links.md §8 and §2.7. */

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
/** The default frequency constant of §2.4. */
export const DEFAULT_FREQUENCY: Frequency = 'weekly';

export const DAYS_OF_WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

/** 1-4: first to fourth occurrence of the weekday in the month; -1: the last. */
export const WEEKS_OF_MONTH = [1, 2, 3, 4, -1] as const;
export type WeekOfMonth = (typeof WEEKS_OF_MONTH)[number];

/** Report date ranges (README, "Reports"); `custom` is written `custom:YYYY-MM-DD:YYYY-MM-DD`. */
export const DATE_RANGES = [
  'today',
  'yesterday',
  'last_7_days',
  'last_30_days',
  'last_week',
  'last_month',
  'this_week',
  'this_month',
  'last_year',
  'custom',
] as const;
export type DateRangeSlug = (typeof DATE_RANGES)[number];
export const DEFAULT_DATE_RANGE: DateRangeSlug = 'last_week';

export const DEFAULT_FORMATS = ['classic'];
/** Blocks of the onboarding report and of a new report's form, when available. */
export const DEFAULT_BLOCKS: readonly string[] = ['compare', 'pages', 'referrers'];
export const DEFAULT_SEND_TIME = '09:00';

export const BATCH_SIZE = 10;
/** Dispatch delay and spacing between batches, in seconds. */
export const BATCH_SPACING = 5 * 60;
/** How long after the scheduled time a report may still go out, in seconds. */
export const GRACE_WINDOW = 24 * 3600;
/** Lifetime of the per-report duplicate-send guard, in seconds. */
export const GUARD_TTL = 24 * 3600;
/** Window of the logs endpoint, in days. */
export const LOG_WINDOW_DAYS = 30;
export const DEFAULT_LOG_RETENTION_DAYS = 30;
/** Queue snapshots mark a send as done; they outlive the longest span the scheduler looks back over. */
export const QUEUE_RETENTION_DAYS = 100;
export const DEFAULT_ROWS_PER_BLOCK = 5;
/** Upper bound on `svc_mail_report_limit`, whatever a filter returns. */
export const MAX_ROWS_PER_BLOCK = 100;

/**
 * How long a node holds a batch (and each recipient it is mailing) without
 * renewing; a batch still `processing` past its lease was cut off (its node
 * died) and the scheduler's retry takes it over. Shorter than the
 * scheduler's own lease on the event, so the first retry finds it free.
 */
export const BATCH_LEASE_SECONDS = 10 * 60;
/** How often a node sending a batch renews its lease, in seconds. */
export const BATCH_RENEW_SECONDS = 60;

export const MAX_RECIPIENTS = 100;
export const MAX_BLOCKS = 30;
export const MAX_TEXT = 10_000;
