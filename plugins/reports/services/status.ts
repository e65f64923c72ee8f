import type { Queue } from '../store/queue-store';
import type { DeliveryStatus, LogEntry, Report, ReportStatus } from '../types';

export const isFinal = (status: DeliveryStatus): boolean => status !== 'processing';

/** The status of one batch from its recipients' outcomes. */
export function batchStatus(sent: number, failed: number): DeliveryStatus {
  if (failed === 0) return 'sending_successful';
  return sent === 0 ? 'sending_failed' : 'partly_sent';
}

export const batchCount = (recipients: number, size: number): number => Math.ceil(recipients / size);

/**
 * A queue's status from its parent and batch entries (§3.1): `cron_miss`
 * stays; until every expected batch has finished it is `processing`; then
 * all successful, all failed, or partly sent.
 */
export function resolveQueueStatus(parent: LogEntry | undefined, batches: readonly LogEntry[], expectedBatches: number): DeliveryStatus {
  if (parent?.status === 'cron_miss') return 'cron_miss';
  const finished = batches.filter((b) => isFinal(b.status));
  if (finished.length < Math.max(expectedBatches, 1)) return 'processing';
  if (finished.every((b) => b.status === 'sending_successful')) return 'sending_successful';
  if (finished.every((b) => b.status === 'sending_failed')) return 'sending_failed';
  return 'partly_sent';
}

/** The parent entry's message once a queue has finished. */
export function queueMessage(status: DeliveryStatus, queue: Queue): string {
  const total = queue.recipients.length;
  if (status === 'sending_successful') return total === 1 ? 'Sent to the one recipient.' : `Sent to all ${total} recipients.`;
  if (status === 'sending_failed') return `No e-mail could be delivered (${queue.failed} of ${total} failed).`;
  return `Sent to ${queue.sent} of ${total} recipients; ${queue.failed} failed.`;
}

/**
 * `lastSendStatus` and `lastSendMessage` (§2.4, §3.1): a report that is not
 * scheduled is `ready_to_share`; a scheduled but disabled one is `concept`;
 * otherwise the status of its latest queue, or `scheduled` before the first.
 */
export function reportStatus(report: Pick<Report, 'enabled' | 'scheduled'>, latest: LogEntry | undefined): { status: ReportStatus; message: string } {
  if (!report.scheduled) return { status: 'ready_to_share', message: 'Not scheduled: the report can be shared or sent by hand.' };
  if (!report.enabled) return { status: 'concept', message: 'Scheduled, but disabled: nothing is sent until it is enabled.' };
  if (latest) return { status: latest.status, message: latest.message };
  return { status: 'scheduled', message: 'Scheduled; nothing has been sent yet.' };
}
