import { badRequest, type Clock, conflict, type Site, type SvcLogger } from '../../../core';
import { BATCH_SIZE, BATCH_SPACING, GUARD_TTL } from '../constants';
import type { MailRenderer } from '../mail/renderer';
import { nextOccurrence, siteDate, siteYesterday } from '../schedule/occurrences';
import type { LogStore } from '../store/log-store';
import type { QueueStore } from '../store/queue-store';
import type { ReportStore } from '../store/report-store';
import type { Report } from '../types';
import type { BatchSender } from './batch-sender';
import { batchCount } from './status';

export interface DispatcherDeps {
  reports: ReportStore;
  logs: LogStore;
  queues: QueueStore;
  sender: BatchSender;
  renderer: MailRenderer;
  clock: Clock;
  logger: SvcLogger;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Opens queues of a site's reports, on its calendar: scheduled dispatch, `send-report-now` and `send-test-report` (§1 rules 4-10). */
export class Dispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  /**
   * Dispatches the occurrence at unix `occurrence`: sets the per-report guard
   * (held until the send window closes or the next occurrence starts), opens
   * the queue and schedules its first batch 5 minutes ahead. False when
   * another run got there first.
   */
  async dispatchScheduled(site: Site, report: Report, occurrence: number): Promise<boolean> {
    const { logs, queues, sender, clock, logger } = this.deps;
    const { timezone } = site;
    const queueId = siteDate(occurrence, timezone);
    if (await logs.has(report.id, queueId, null)) return false;
    const expires = Math.min(occurrence + GUARD_TTL, nextOccurrence(report, occurrence, timezone) ?? Infinity);
    if (!(await queues.acquireGuard(report.id, expires))) {
      logger.info({ reportId: report.id, queueId }, 'report guard is held by another run; skipped');
      return false;
    }
    const first = clock.unix() + BATCH_SPACING;
    const batches = batchCount(report.recipients.length, BATCH_SIZE);
    const opened = await this.open(site, report, queueId, report.recipients, true, `Queued for ${plural(report.recipients.length, 'recipient')} in ${plural(batches, 'batch')}; the first batch goes out in 5 minutes.`);
    if (!opened) return false;
    await sender.schedule(report.id, queueId, 1, first);
    logger.info({ reportId: report.id, queueId }, 'report dispatched');
    return true;
  }

  /** Sends the first batch now and schedules the rest (§1 rule 10); answers the queue id. */
  async sendNow(site: Site, report: Report): Promise<string> {
    this.deps.renderer.check(report);
    if (report.recipients.length === 0) throw badRequest('recipients: the report has no recipients', 'svc_invalid_param', { field: 'recipients' });
    const queueId = siteDate(this.deps.clock.unix(), site.timezone);
    const opened = await this.open(site, report, queueId, report.recipients, true, `Sending to ${plural(report.recipients.length, 'recipient')} now.`);
    if (!opened) throw conflict(`This report already has a queue for ${queueId}; the next send follows its schedule.`, 'svc_report_queue_exists');
    await this.deps.sender.send(report.id, queueId, 1, { chain: true });
    return queueId;
  }

  /** Delivers a test immediately, every batch in turn, without scheduler events (§1 rule 9); answers the queue id. */
  async sendTest(site: Site, report: Report, recipients: readonly string[]): Promise<string> {
    this.deps.renderer.check(report);
    if (recipients.length === 0) throw badRequest('recipients: name at least one recipient for the test', 'svc_invalid_param', { field: 'recipients' });
    const now = this.deps.clock.unix();
    const queueId = `test-${siteDate(now, site.timezone)}-${now}`;
    const opened = await this.open(site, report, queueId, recipients, false, `Test send to ${plural(recipients.length, 'recipient')}.`);
    if (!opened) throw conflict('A test of this report was sent this second; try again.', 'svc_report_queue_exists');
    for (let batch = 1; batch <= batchCount(recipients.length, BATCH_SIZE); batch++) {
      await this.deps.sender.send(report.id, queueId, batch, { chain: false });
    }
    return queueId;
  }

  /** Creates the queue and its `processing` parent entry; false when the queue exists. */
  private async open(site: Site, report: Report, queueId: string, recipients: readonly string[], sendsReport: boolean, message: string): Promise<boolean> {
    const { queues, reports, logs, clock } = this.deps;
    if (!(await queues.create(report.id, queueId, recipients))) return false;
    if (sendsReport) await reports.setFixedEndDate(site.id, report.id, siteYesterday(clock.unix(), site.timezone));
    await logs.insertParent(site.id, report.id, queueId, 'processing', message);
    return true;
  }
}
