import type { Clock } from '../../../core';
import type { ReportsApp } from '../app';
import { BLOCK_ENDPOINTS } from '../mail/block-catalog';
import { type DaySpan, blockSpan, reportEndDay, resolveDateRange, spanLabel } from '../schedule/date-ranges';
import type { ContentBlock, ReportObject } from '../types';

type Period = Pick<ReportObject, 'reportDateRange' | 'fixedEndDate'>;

/** What reports offer other plugins (the story plugin) as the `reports` service. */
export interface ReportsService {
  /**
   * The report object of §2.4. With `is_shared_link` the private fields are
   * empty and not read, and a disabled or unknown report is `[]`; without it an
   * unknown report is null.
   */
  reportObject(id: number, options?: { is_shared_link?: boolean }): Promise<ReportObject | [] | null>;
  /** The report's content blocks with their filters; empty for an unknown report. */
  blocks(id: number): Promise<ContentBlock[]>;
  /** Data type and datatable ids a report share session may call for a block id (internal map, not filterable). */
  blockEndpoints(blockId: string): readonly string[];
  /** The days a report covers, read as its mails read them (its fixed end date, or yesterday before the first mail). */
  period(report: Period): DaySpan;
  /** A block's days: its own range when its override is on, else the report's. */
  blockPeriod(block: ContentBlock, report: Period): DaySpan;
  /** "1 Dec 2025 – 7 Dec 2025", or one day. */
  spanLabel(span: DaySpan): string;
}

declare module '../../../core/plugins/services' {
  interface SvcServices {
    reports: ReportsService;
  }
}

export function reportsService(app: ReportsApp, clock: Clock, timezone: string): ReportsService {
  const endDay = (report: Period) => reportEndDay(report.fixedEndDate, clock.unix(), timezone);
  return {
    period: (report) => resolveDateRange(report.reportDateRange, endDay(report)),
    blockPeriod: (block, report) => blockSpan(block, report.reportDateRange, endDay(report)),
    spanLabel,
    reportObject: (id, options) => app.objects.build(id, options),
    blocks: async (id) => (await app.reports.findShared(id))?.content ?? [],
    blockEndpoints: (blockId) => (Object.prototype.hasOwnProperty.call(BLOCK_ENDPOINTS, blockId) ? BLOCK_ENDPOINTS[blockId]! : []),
  };
}
