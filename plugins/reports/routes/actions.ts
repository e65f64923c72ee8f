import type { Clock } from '../../../core';
import type { ReportsApp } from '../app';
import { siteYesterday } from '../schedule/occurrences';
import { reportNotFound } from '../services/editor';
import { invalid } from '../services/field-error';
import { queueLog } from '../services/log-list';
import { parseRecipients } from '../services/recipients';
import type { Report } from '../types';

export const REPORT_ACTIONS = ['create', 'update', 'delete', 'send-test-report', 'send-report-now', 'preview'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export const isReportAction = (value: string): value is ReportAction => (REPORT_ACTIONS as readonly string[]).includes(value);

type Body = Record<string, unknown>;

/** A positive whole number (or its decimal string) under `field`. */
export function parseId(raw: unknown, field: string): number {
  const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw invalid(field, 'must be a positive whole number');
  return n;
}

/**
 * The six `do_action/report/{action}` actions (internally `report-<action>`),
 * shared by the REST route and the admin pages.
 */
export class ReportActions {
  constructor(
    private readonly app: ReportsApp,
    private readonly clock: Clock,
    private readonly timezone: string,
  ) {}

  async run(action: string, rawBody: unknown): Promise<unknown> {
    if (!isReportAction(action)) throw invalid('action', `must be one of ${REPORT_ACTIONS.join(', ')}`);
    if (!rawBody || typeof rawBody !== 'object' || Array.isArray(rawBody)) throw invalid('body', 'must be a JSON object');
    const body = rawBody as Body;
    switch (action) {
      case 'create':
        return { report: await this.app.editor.create(body.report) };
      case 'update': {
        const report = body.report;
        if (!report || typeof report !== 'object' || Array.isArray(report)) throw invalid('report', 'must be a report object');
        return { report: await this.app.editor.update(parseId((report as Body).id, 'report.id'), report) };
      }
      case 'delete': {
        const id = parseId(body.id, 'id');
        await this.app.editor.remove(id);
        return { deleted: id };
      }
      case 'send-test-report': {
        const report = await this.report(body);
        const recipients = body.recipients === undefined ? report.recipients : parseRecipients(body.recipients);
        return { queue: await this.queue(report.id, await this.app.dispatcher.sendTest(report, recipients)) };
      }
      case 'send-report-now': {
        const report = await this.report(body);
        return { queue: await this.queue(report.id, await this.app.dispatcher.sendNow(report)) };
      }
      case 'preview': {
        const report = await this.report(body);
        const mail = await this.app.renderer.compose(report, siteYesterday(this.clock.unix(), this.timezone));
        return { html: mail.html };
      }
    }
  }

  private async report(body: Body): Promise<Report> {
    const id = parseId(body.id, 'id');
    const report = await this.app.reports.find(id);
    if (!report) throw reportNotFound(id);
    return report;
  }

  private queue(reportId: number, queueId: string) {
    return queueLog(this.app, reportId, queueId);
  }
}
