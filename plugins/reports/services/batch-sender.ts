import { createHash, randomUUID } from 'node:crypto';
import { type Clock, describeError, type Mailer, type PluginContext, type Site, type SvcLogger } from '../../../core';
import { BATCH_LEASE_SECONDS, BATCH_SIZE, BATCH_SPACING } from '../constants';
import type { ComposedMail, MailRenderer } from '../mail/renderer';
import { siteYesterday } from '../schedule/occurrences';
import type { LogStore } from '../store/log-store';
import type { Queue, QueueStore } from '../store/queue-store';
import type { ReportStore } from '../store/report-store';
import type { SendStore } from '../store/send-store';
import { BatchLease } from './batch-lease';
import { batchCount, batchStatus, queueMessage, resolveQueueStatus } from './status';

export interface BatchSenderDeps {
  reports: ReportStore;
  logs: LogStore;
  queues: QueueStore;
  sends: SendStore;
  renderer: MailRenderer;
  mailer: Mailer;
  scheduler: PluginContext['scheduler'];
  sites: PluginContext['sites'];
  clock: Clock;
  /** Host part of the reports' fixed Message-IDs. */
  mailHost: string;
  logger: SvcLogger;
}

interface Outcome {
  sent: string[];
  failed: Array<[email: string, reason: string]>;
}

type Result = [status: 'sent' | 'failed', message: string];

function batchMessage({ sent, failed }: Outcome): string {
  const total = sent.length + failed.length;
  const sentText = sent.length ? `Sent to ${sent.length} of ${total}: ${sent.join(', ')}.` : `Sent to none of ${total}.`;
  return failed.length ? `${sentText} Failed: ${failed.map(([email, reason]) => `${email} (${reason})`).join('; ')}.` : sentText;
}

/** The same Message-ID every time one occurrence of a report goes to one recipient. */
function messageId(reportId: number, queueId: string, recipient: string, host: string): string {
  const who = createHash('sha256').update(recipient.toLowerCase()).digest('hex').slice(0, 20);
  return `<svc-report-${reportId}.${queueId}.${who}@${host}>`;
}

/**
 * Handles one batch of a queue (§1 rules 5-7): a repeat is ignored, the
 * next batch is scheduled 5 minutes later, each recipient's domain is
 * checked before the mail goes out, and the batch's and the queue's
 * statuses are written to the log. The node holds the batch on a lease
 * while it sends and records each recipient's send, so a batch whose node
 * died is taken over by the scheduler's retry and finished without mailing
 * anyone twice.
 */
export class BatchSender {
  /** This process's name on the batches and recipients it claims. */
  private readonly node = randomUUID();

  constructor(private readonly deps: BatchSenderDeps) {}

  /**
   * Sends batch `batchId` (1-based; null means the first) of a queue.
   * `chain` schedules the following batch; test sends handle every batch
   * themselves and pass false.
   */
  async send(reportId: number, queueId: string, batchId: number | null, { chain }: { chain: boolean }): Promise<void> {
    const { logs, queues, reports, sites, logger, clock } = this.deps;
    const batch = batchId ?? 1;
    const queue = await queues.find(reportId, queueId);
    const siteId = await reports.siteOf(reportId);
    const site = siteId === null ? null : await sites.get(siteId);
    if (!queue || !site || !Number.isInteger(batch) || batch < 1) {
      logger.warn({ reportId, queueId, batch }, 'svc_send_email_batch for an unknown report, queue or batch; ignored');
      return;
    }
    const total = batchCount(queue.recipients.length, BATCH_SIZE);
    if (batch > total) return;
    if (!(await logs.claimBatch(site.id, reportId, queueId, batch, BATCH_LEASE_SECONDS))) {
      logger.info({ reportId, queueId, batch }, 'batch already handled; the repeat is ignored');
      return;
    }
    if (chain && batch < total) await this.schedule(reportId, queueId, batch + 1, clock.unix() + BATCH_SPACING);
    const recipients = queue.recipients.slice((batch - 1) * BATCH_SIZE, batch * BATCH_SIZE);
    const lease = new BatchLease({ ...this.deps }, { reportId, queueId, batchId: batch }, this.node);
    lease.start();
    try {
      if (!(await this.deliver(site, reportId, queue, batch, recipients, lease))) {
        logger.warn({ reportId, queueId, batch }, 'the lease on a report batch ran out while sending; another node finishes it');
        return;
      }
    } finally {
      lease.stop();
    }
    const outcome = await this.outcome(reportId, queueId, batch, recipients);
    if (!outcome) return;
    await logs.updateBatch(reportId, queueId, batch, batchStatus(outcome.sent.length, outcome.failed.length), batchMessage(outcome));
    const totals = await queues.recount(reportId, queueId);
    await this.resolve(reportId, queueId, total, totals ?? queue);
  }

  /** Schedules a batch unless it is pending or was handled already (§1 rule 6); true when scheduled. */
  async schedule(reportId: number, queueId: string, batchId: number, at: number): Promise<boolean> {
    const { logs, scheduler } = this.deps;
    if (await logs.has(reportId, queueId, batchId)) return false;
    if ((await scheduler.nextScheduled('svc_send_email_batch', [reportId, queueId, batchId])) !== null) return false;
    return scheduler.scheduleSingle(at, 'svc_send_email_batch', [reportId, queueId, batchId]);
  }

  /**
   * Mails each recipient no run has handled yet, claiming it first and
   * recording the result; false when the lease ran out on the way.
   */
  private async deliver(site: Site, reportId: number, queue: Queue, batch: number, recipients: string[], lease: BatchLease): Promise<boolean> {
    const { reports, renderer, sends, mailHost, logger } = this.deps;
    const report = await reports.find(site.id, reportId);
    let mail: ComposedMail | null = null;
    let failure = report ? null : 'the report no longer exists';
    if (report) {
      try {
        mail = await renderer.compose(site, report, siteYesterday(queue.created, site.timezone));
      } catch (err) {
        logger.error({ reportId, queueId: queue.queueId, err }, 'report mail could not be rendered');
        failure = `the mail could not be rendered: ${describeError(err)}`;
      }
    }
    for (const recipient of recipients) {
      if (!lease.held) return false;
      const key = { reportId, queueId: queue.queueId, recipient };
      if (!(await sends.claim(key, batch, this.node, lease.end))) continue;
      const [status, message] = mail ? await this.mailOne(recipient, mail, messageId(reportId, queue.queueId, recipient, mailHost)) : (['failed', failure!] as Result);
      await sends.finish(key, this.node, status, message);
    }
    return true;
  }

  private async mailOne(email: string, mail: ComposedMail, id: string): Promise<Result> {
    const { mailer } = this.deps;
    if (!(await mailer.shouldSendTo(email))) return ['failed', 'its domain has no MX, A or AAAA record; skipped'];
    try {
      const result = await mailer.send({ to: email, subject: mail.subject, html: mail.html, text: mail.text, messageId: id });
      return result.rejected.length ? ['failed', 'rejected by the mail server'] : ['sent', ''];
    } catch (err) {
      return ['failed', describeError(err)];
    }
  }

  /** The batch's outcome in recipient order; null while a recipient is still being sent by another node, which then writes it. */
  private async outcome(reportId: number, queueId: string, batch: number, recipients: string[]): Promise<Outcome | null> {
    const recorded = new Map((await this.deps.sends.batch(reportId, queueId, batch)).map((s) => [s.recipient.toLowerCase(), s]));
    const outcome: Outcome = { sent: [], failed: [] };
    for (const email of recipients) {
      const send = recorded.get(email.toLowerCase());
      if (!send || send.status === 'sending') return null;
      if (send.status === 'sent') outcome.sent.push(email);
      else outcome.failed.push([email, send.message]);
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
