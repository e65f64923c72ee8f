import type { Clock } from '../../../core/clock';
import { describeError } from '../../../core/errors';
import type { SvcLogger } from '../../../core/logger';
import type { Mailer } from '../../../core/mail/mailer';
import type { PluginContext } from '../../../core/plugins/context';
import { BATCH_SIZE, BATCH_SPACING, STALE_BATCH_SECONDS } from '../constants';
import type { ComposedMail, MailRenderer } from '../mail/renderer';
import { siteYesterday } from '../schedule/occurrences';
import type { LogStore } from '../store/log-store';
import type { Queue, QueueStore } from '../store/queue-store';
import type { ReportStore } from '../store/report-store';
import { batchCount, batchStatus, queueMessage, resolveQueueStatus } from './status';

export interface BatchSenderDeps {
  reports: ReportStore;
  logs: LogStore;
  queues: QueueStore;
  renderer: MailRenderer;
  mailer: Mailer;
  scheduler: PluginContext['scheduler'];
  clock: Clock;
  timezone: string;
  logger: SvcLogger;
}

interface Outcome {
  sent: string[];
  failed: Array<[email: string, reason: string]>;
}

function batchMessage({ sent, failed }: Outcome): string {
  const total = sent.length + failed.length;
  const sentText = sent.length ? `Sent to ${sent.length} of ${total}: ${sent.join(', ')}.` : `Sent to none of ${total}.`;
  return failed.length ? `${sentText} Failed: ${failed.map(([email, reason]) => `${email} (${reason})`).join('; ')}.` : sentText;
}

/**
 * Handles one batch of a queue (§1 rules 5-7): a repeat is ignored (a batch
 * whose run was cut off an hour ago is taken over), the next batch is
 * scheduled 5 minutes later, each recipient's domain is checked
 * before the mail goes out, and the batch's and the queue's statuses are
 * written to the log.
 */
export class BatchSender {
  constructor(private readonly deps: BatchSenderDeps) {}

  /**
   * Sends batch `batchId` (1-based; null means the first) of a queue.
   * `chain` schedules the following batch; test sends handle every batch
   * themselves and pass false.
   */
  async send(reportId: number, queueId: string, batchId: number | null, { chain }: { chain: boolean }): Promise<void> {
    const { logs, queues, logger, clock } = this.deps;
    const batch = batchId ?? 1;
    const queue = await queues.find(reportId, queueId);
    if (!queue || !Number.isInteger(batch) || batch < 1) {
      logger.warn({ reportId, queueId, batch }, 'svc_send_email_batch for an unknown queue or batch; ignored');
      return;
    }
    const total = batchCount(queue.recipients.length, BATCH_SIZE);
    if (batch > total) return;
    if (!(await logs.claimBatch(reportId, queueId, batch, STALE_BATCH_SECONDS))) {
      logger.info({ reportId, queueId, batch }, 'batch already handled; the repeat is ignored');
      return;
    }
    if (chain && batch < total) await this.schedule(reportId, queueId, batch + 1, clock.unix() + BATCH_SPACING);
    const outcome = await this.deliver(reportId, queue, queue.recipients.slice((batch - 1) * BATCH_SIZE, batch * BATCH_SIZE));
    await logs.updateBatch(reportId, queueId, batch, batchStatus(outcome.sent.length, outcome.failed.length), batchMessage(outcome));
    const totals = await queues.count(reportId, queueId, outcome.sent.length, outcome.failed.length);
    await this.resolve(reportId, queueId, total, totals ?? queue);
  }

  /** Schedules a batch unless it is pending or was handled already (§1 rule 6); true when scheduled. */
  async schedule(reportId: number, queueId: string, batchId: number, at: number): Promise<boolean> {
    const { logs, scheduler } = this.deps;
    if (await logs.has(reportId, queueId, batchId)) return false;
    if ((await scheduler.nextScheduled('svc_send_email_batch', [reportId, queueId, batchId])) !== null) return false;
    return scheduler.scheduleSingle(at, 'svc_send_email_batch', [reportId, queueId, batchId]);
  }

  private async deliver(reportId: number, queue: Queue, recipients: string[]): Promise<Outcome> {
    const { reports, renderer, mailer, timezone } = this.deps;
    const failAll = (reason: string): Outcome => ({ sent: [], failed: recipients.map((r) => [r, reason]) });
    const report = await reports.find(reportId);
    if (!report) return failAll('the report no longer exists');
    let mail: ComposedMail;
    try {
      mail = await renderer.compose(report, siteYesterday(queue.created, timezone));
    } catch (err) {
      this.deps.logger.error({ reportId, queueId: queue.queueId, err }, 'report mail could not be rendered');
      return failAll(`the mail could not be rendered: ${describeError(err)}`);
    }
    const outcome: Outcome = { sent: [], failed: [] };
    for (const email of recipients) {
      if (!(await mailer.shouldSendTo(email))) {
        outcome.failed.push([email, 'its domain has no MX, A or AAAA record; skipped']);
        continue;
      }
      try {
        const result = await mailer.send({ to: email, subject: mail.subject, html: mail.html, text: mail.text });
        if (result.rejected.length) outcome.failed.push([email, 'rejected by the mail server']);
        else outcome.sent.push(email);
      } catch (err) {
        outcome.failed.push([email, describeError(err)]);
      }
    }
    return outcome;
  }

  /** Writes the queue's final status once every batch has finished. */
  private async resolve(reportId: number, queueId: string, expected: number, totals: Queue): Promise<void> {
    const entries = await this.deps.logs.queue(reportId, queueId);
    const parent = entries.find((e) => e.batch_id === null);
    const status = resolveQueueStatus(parent, entries.filter((e) => e.batch_id !== null), expected);
    if (status === 'processing' || status === 'cron_miss') return;
    await this.deps.logs.updateParent(reportId, queueId, status, queueMessage(status, totals));
  }
}
