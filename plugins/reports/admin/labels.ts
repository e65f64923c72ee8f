import { DateTime } from 'luxon';
import type { DeliveryStatus, Report, ReportStatus } from '../types';

/** How the admin shows statuses; `sent` and `failed` are the aliases the admin shows. */
export const STATUS_LABELS: Readonly<Record<ReportStatus, string>> = {
  processing: 'sending',
  sending_successful: 'sent',
  sending_failed: 'failed',
  partly_sent: 'partly sent',
  cron_miss: 'missed',
  scheduled: 'scheduled',
  ready_to_share: 'ready to share',
  concept: 'concept',
};

export const statusLabel = (status: ReportStatus | DeliveryStatus | ''): string => (status ? STATUS_LABELS[status] : '');

/** The admin stylesheet's badge class for a status: good, bad or neutral. */
export function statusTone(status: ReportStatus | DeliveryStatus | ''): string {
  if (status === 'sending_successful') return 'state-loaded';
  return status === 'sending_failed' || status === 'partly_sent' || status === 'cron_miss' ? 'state-failed' : '';
}

const ORDINAL: Readonly<Record<string, string>> = { '1': 'first', '2': 'second', '3': 'third', '4': 'fourth', '-1': 'last' };
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Weekly on Monday at 09:00", "Monthly on the last Friday at 18:30". */
export function scheduleLabel(report: Pick<Report, 'frequency' | 'dayOfWeek' | 'weekOfMonth' | 'sendTime'>): string {
  const day = capital(report.dayOfWeek ?? '');
  if (report.frequency === 'daily') return `Daily at ${report.sendTime}`;
  if (report.frequency === 'weekly') return `Weekly on ${day} at ${report.sendTime}`;
  return `Monthly on the ${ORDINAL[String(report.weekOfMonth)] ?? ''} ${day} at ${report.sendTime}`;
}

export const timeLabel = (unix: number, timezone: string): string =>
  unix ? DateTime.fromSeconds(unix, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm') : '—';
