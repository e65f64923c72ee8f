import { DEFAULT_FREQUENCY } from '../constants';
import type { LogStore } from '../store/log-store';
import type { ReportStore, SharedReportFields } from '../store/report-store';
import type { LogEntry, Report, ReportObject } from '../types';
import { reportStatus } from './status';

/** The fields the shared-link form omits, with their empty or default values (§2.4 rule 1). */
const privateDefaults = () =>
  ({
    frequency: DEFAULT_FREQUENCY,
    weekOfMonth: null,
    dayOfWeek: null,
    sendTime: '',
    lastEdit: 0,
    scheduled: false,
    recipients: [],
    lastSendStatus: '',
    lastSendMessage: '',
  }) satisfies Partial<ReportObject>;

/**
 * Builds the report object of §2.4, the one place that does. With
 * `is_shared_link` only the shared columns are read, the private fields carry
 * their defaults, and a disabled report is `[]` (rules 1-3).
 */
export class ReportObjects {
  constructor(
    private readonly reports: ReportStore,
    private readonly logs: LogStore,
  ) {}

  /** The object of the site's report `id`; null when it does not exist (`[]` in the shared form). */
  async build(siteId: number, id: number, { is_shared_link = false }: { is_shared_link?: boolean } = {}): Promise<ReportObject | [] | null> {
    if (is_shared_link) {
      const fields = await this.reports.findShared(siteId, id);
      return fields && fields.enabled ? this.shared(fields) : [];
    }
    const report = await this.reports.find(siteId, id);
    if (!report) return null;
    return this.full(report, (await this.logs.latestParents([report.id])).get(report.id));
  }

  /** Every report of the site in the full form, most recently edited first. */
  async list(siteId: number): Promise<ReportObject[]> {
    const reports = await this.reports.list(siteId);
    const latest = await this.logs.latestParents(reports.map((r) => r.id));
    return reports.map((r) => this.full(r, latest.get(r.id)));
  }

  private full(report: Report, latest: LogEntry | undefined): ReportObject {
    const { status, message } = reportStatus(report, latest);
    return {
      ...this.shared(report),
      frequency: report.frequency,
      weekOfMonth: report.weekOfMonth,
      dayOfWeek: report.dayOfWeek,
      sendTime: report.sendTime,
      lastEdit: report.lastEdit,
      scheduled: report.scheduled,
      recipients: [...report.recipients],
      lastSendStatus: status,
      lastSendMessage: message,
    };
  }

  private shared(fields: SharedReportFields): ReportObject {
    return {
      id: fields.id,
      name: fields.name,
      format: fields.format,
      enabled: fields.enabled,
      content: fields.content,
      reportDateRange: fields.dateRange,
      fixedEndDate: fields.fixedEndDate,
      ...privateDefaults(),
    };
  }
}
