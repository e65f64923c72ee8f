import { type Database, type Hooks, isSvcError, type PluginContext, type StatisticsApi, SvcError, type SvcLogger } from '../../../core';
import { DEFAULT_BLOCKS, DEFAULT_FORMATS } from '../constants';
import type { BlockBuilder } from '../mail/block-builder';
import type { LogStore } from '../store/log-store';
import type { QueueStore } from '../store/queue-store';
import type { SendStore } from '../store/send-store';
import type { ReportStore } from '../store/report-store';
import type { BlockFilter, Report, ReportInput, ReportObject } from '../types';
import { refuse } from '../../../core';
import { normalizeEmail } from './recipients';
import { type InputRules, defaultInput, parseReportInput } from './report-input';
import type { ReportObjects } from './report-objects';

/** The query id block filters are sanitised under (§1 rule 14). */
export const SANITIZE_QUERY_ID = 'report_sanitize_content_filters';

const FORMAT = /^[a-z0-9_-]{1,32}$/;

export interface EditorDeps {
  db: Database;
  reports: ReportStore;
  logs: LogStore;
  queues: QueueStore;
  sends: SendStore;
  objects: ReportObjects;
  builder: BlockBuilder;
  hooks: Hooks;
  statistics: StatisticsApi;
  scheduler: PluginContext['scheduler'];
  logger: SvcLogger;
}

export const reportNotFound = (id: number | string) => new SvcError('svc_report_not_found', `There is no report with id ${id}.`, 404);

/** Creates, updates and deletes reports; every write is validated in full before anything is stored. */
export class ReportEditor {
  constructor(private readonly deps: EditorDeps) {}

  /** Valid formats after `svc_report_formats`. */
  async formats(): Promise<string[]> {
    const formats = await this.deps.hooks.applyFilters('svc_report_formats', [...DEFAULT_FORMATS]);
    return [...new Set((Array.isArray(formats) ? formats : DEFAULT_FORMATS).filter((f) => typeof f === 'string' && FORMAT.test(f)))];
  }

  /** What a report must satisfy right now: formats, available blocks and filter dimensions. */
  async rules(): Promise<InputRules> {
    const blocks = await this.deps.builder.available();
    return { formats: await this.formats(), blockIds: new Set(blocks.map((b) => b.id)), sanitizeFilters: (raw, field) => this.sanitizeFilters(raw, field) };
  }

  async create(siteId: number, raw: unknown): Promise<ReportObject> {
    const rules = await this.rules();
    const id = await this.deps.reports.create(siteId, parseReportInput(raw, rules, defaultInput(rules.formats)));
    return (await this.deps.objects.build(siteId, id)) as ReportObject;
  }

  async update(siteId: number, id: number, raw: unknown): Promise<ReportObject> {
    const stored = await this.deps.reports.find(siteId, id);
    if (!stored) throw reportNotFound(id);
    const input = parseReportInput(raw, await this.rules(), toInput(stored));
    if (!(await this.deps.reports.update(siteId, id, input))) throw reportNotFound(id);
    return (await this.deps.objects.build(siteId, id)) as ReportObject;
  }

  /** Deletes the site's report with its log, queues and pending batches. */
  async remove(siteId: number, id: number): Promise<void> {
    const { db, reports, logs, queues, sends, scheduler } = this.deps;
    const deleted = await db.transaction(async (t) => {
      if (!(await reports.delete(siteId, id, t))) return false;
      await logs.deleteForReport(id, t);
      await queues.deleteForReport(id, t);
      await sends.deleteForReport(id, t);
      return true;
    });
    if (!deleted) throw reportNotFound(id);
    for (const event of await scheduler.pending('svc_send_email_batch')) {
      const [reportId, queueId, batchId] = event.args as [number, string, number | null];
      if (reportId === id) await scheduler.unschedule('svc_send_email_batch', [reportId, queueId, batchId]);
    }
  }

  /** `svc_create_report_from_onboarding` (§2.7): the site's weekly summary for one recipient; null when the address is not valid. */
  async createFromOnboarding(siteId: number, email: unknown): Promise<number | null> {
    const recipient = typeof email === 'string' ? normalizeEmail(email) : null;
    if (!recipient) {
      this.deps.logger.warn({ email: String(email).slice(0, 100) }, 'svc_create_report_from_onboarding needs a valid e-mail address; nothing created');
      return null;
    }
    const rules = await this.rules();
    const input = parseReportInput(
      {
        name: 'Weekly Summary',
        format: 'classic',
        frequency: 'weekly',
        dayOfWeek: 'monday',
        sendTime: '09:00',
        reportDateRange: 'last_week',
        enabled: true,
        scheduled: true,
        recipients: [recipient],
        content: DEFAULT_BLOCKS.filter((id) => rules.blockIds.has(id)).map((id) => ({ id })),
      },
      rules,
      defaultInput(rules.formats),
    );
    return this.deps.reports.create(siteId, input);
  }

  /** Block filters in canonical `{ key, value }` form; unknown dimensions or bad values are a 400 naming `field`. */
  private sanitizeFilters(raw: unknown, field: string): BlockFilter[] {
    const { statistics } = this.deps;
    try {
      const parsed = statistics.parseRequest({ filters: raw }, { metrics: [], defaultMetrics: [], groupBy: [], defaultGroupBy: [], filters: statistics.dimensions() });
      const filters = parsed.filters.map((f) => ({ key: f.dimension, value: f.value }));
      return parsed.status === '200' ? filters : [...filters, { key: 'status', value: parsed.status }];
    } catch (err) {
      if (isSvcError(err) && err.status === 400) {
        this.deps.logger.debug({ queryId: SANITIZE_QUERY_ID, field }, 'block filters refused');
        throw refuse(field, err.message);
      }
      throw err;
    }
  }
}

function toInput(report: Report): ReportInput {
  const { id: _id, siteId: _siteId, lastEdit: _lastEdit, ...input } = report;
  return input;
}
