import { choice, type Clock, object, type Site, wholeNumber } from '../../../core';
import type { ReportsApp } from '../app';
import { siteYesterday } from '../schedule/occurrences';
import { reportNotFound } from '../services/editor';
import { queueLog } from '../services/log-list';
import { parseRecipients } from '../services/recipients';
import type { Report } from '../types';

export const REPORT_ACTIONS = ['create', 'update', 'delete', 'send-test-report', 'send-report-now', 'preview'] as const;

type Body = Record<string, unknown>;

/** A report id: a whole number of 1 or more (or its text) under `field`. */
export const parseId = (raw: unknown, field: string): number => wholeNumber(raw, field, 1);

/**
 * The six `do_action/report/{action}` actions (internally `report-<action>`)
 * on one site's reports, shared by the REST route and the admin pages.
 */
export class ReportActions {
  constructor(
    private readonly app: ReportsApp,
    private readonly clock: Clock,
  ) {}

  async run(site: Site, action: string, rawBody: unknown): Promise<unknown> {
    const checked = choice(action, 'action', REPORT_ACTIONS);
    const body = object(rawBody, 'body');
    switch (checked) {
      case 'create':
        return { report: await this.app.editor.create(site.id, body.report) };
      case 'update': {
        const report = object(body.report, 'report');
        return { report: await this.app.editor.update(site.id, parseId(report.id, 'report.id'), report) };
      }
      case 'delete': {
        const id = parseId(body.id, 'id');
        await this.app.editor.remove(site.id, id);
        return { deleted: id };
      }
      case 'send-test-report': {
        const report = await this.report(site, body);
        const recipients = body.recipients === undefined ? report.recipients : parseRecipients(body.recipients);
        return { queue: await this.queue(site, report.id, await this.app.dispatcher.sendTest(site, report, recipients)) };
      }
      case 'send-report-now': {
        const report = await this.report(site, body);
        return { queue: await this.queue(site, report.id, await this.app.dispatcher.sendNow(site, report)) };
      }
      case 'preview': {
        const report = await this.report(site, body);
        const mail = await this.app.renderer.compose(site, report, siteYesterday(this.clock.unix(), site.timezone));
        return { html: mail.html };
      }
    }
  }

  private async report(site: Site, body: Body): Promise<Report> {
    const id = parseId(body.id, 'id');
    const report = await this.app.reports.find(site.id, id);
    if (!report) throw reportNotFound(id);
    return report;
  }

  private queue(site: Site, reportId: number, queueId: string) {
    return queueLog(this.app, site.id, reportId, queueId);
  }
}
