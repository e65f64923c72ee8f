import { DateTime } from 'luxon';
import type { Clock, PluginContext, Site, SvcLogger } from '../../../core';
import { GRACE_WINDOW } from '../constants';
import { lastClosedOccurrence, openOccurrence, owesOccurrence, siteDate } from '../schedule/occurrences';
import type { LogStore } from '../store/log-store';
import type { QueueStore } from '../store/queue-store';
import type { ReportStore } from '../store/report-store';
import type { Report } from '../types';
import type { Dispatcher } from './dispatcher';

export interface EvaluatorDeps {
  reports: ReportStore;
  logs: LogStore;
  queues: QueueStore;
  dispatcher: Dispatcher;
  sites: PluginContext['sites'];
  clock: Clock;
  logger: SvcLogger;
}

/** The hourly evaluation on `svc_every_hour` (§1 rules 1-4, 12), each site's reports on that site's calendar. */
export class Evaluator {
  constructor(private readonly deps: EvaluatorDeps) {}

  /**
   * Dispatches every report whose send window is open and records missed
   * runs; answers how many were dispatched. Only occurrences from the day of
   * the report's last edit on count (`owesOccurrence`); the queue of the day
   * and the guard keep an edit from sending one twice.
   */
  async run(): Promise<number> {
    const { reports, clock, logger } = this.deps;
    if (!(await reports.tableExists())) return 0;
    const now = clock.unix();
    let dispatched = 0;
    for (const site of await this.deps.sites.list()) {
      const { timezone } = site;
      for (const report of await reports.active(site.id)) {
        try {
          const occurrence = openOccurrence(report, now, timezone);
          if (occurrence !== null && owesOccurrence(report.lastEdit, occurrence, timezone) && (await this.deps.dispatcher.dispatchScheduled(site, report, occurrence))) dispatched++;
          await this.recordMiss(site, report, now);
        } catch (err) {
          logger.error({ siteId: site.id, reportId: report.id, err }, 'report evaluation failed');
        }
      }
    }
    return dispatched;
  }

  /**
   * Logs `cron_miss` for the latest occurrence whose send window closed
   * without a queue, when the report owed it (an edit on a later day means
   * it was not expected to go out).
   */
  private async recordMiss(site: Site, report: Report, now: number): Promise<void> {
    const { logs, queues } = this.deps;
    const { timezone } = site;
    const occurrence = lastClosedOccurrence(report, now, timezone);
    if (occurrence === null || !owesOccurrence(report.lastEdit, occurrence, timezone)) return;
    const queueId = siteDate(occurrence, timezone);
    if (await logs.has(report.id, queueId, null)) return;
    if (!(await queues.create(report.id, queueId, []))) return;
    const at = (t: number) => DateTime.fromSeconds(t, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm');
    await logs.insertParent(
      site.id,
      report.id,
      queueId,
      'cron_miss',
      `The scheduler did not run between ${at(occurrence)} and ${at(occurrence + GRACE_WINDOW)} (${timezone}), so the report for ${queueId} was not sent.`,
    );
    this.deps.logger.warn({ reportId: report.id, queueId }, 'scheduled report missed its send window');
  }
}
