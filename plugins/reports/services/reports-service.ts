import type { Clock, Site } from '../../../core';
import type { ReportsApp } from '../app';
import { BLOCK_ENDPOINTS } from '../mail/block-catalog';
import { type DaySpan, blockSpan, reportEndDay, resolveDateRange, spanLabel } from '../schedule/date-ranges';
import type { ContentBlock, ReportObject } from '../types';

type Period = Pick<ReportObject, 'reportDateRange' | 'fixedEndDate'>;

/** What reports offer other plugins (the story plugin) as the `reports` service; every report is read within one site. */
export interface ReportsService {
  /**
   * The report object of §2.4. With `is_shared_link` the private fields are
   * empty and not read, and a disabled or unknown report is `[]`; without it an
   * unknown report is null. A report of another site is unknown.
   */
  reportObject(siteId: number, id: number, options?: { is_shared_link?: boolean }): Promise<ReportObject | [] | null>;
  /** The report's content blocks with their filters; empty for an unknown report. */
  blocks(siteId: number, id: number): Promise<ContentBlock[]>;
  /** Data type and datatable ids a report share session may call for a block id (internal map, not filterable). */
  blockEndpoints(blockId: string): readonly string[];
  /** The days a report covers, read as its mails read them (its fixed end date, or yesterday in the site's timezone before the first mail). */
  period(site: Site, report: Period): DaySpan;
  /** A block's days: its own range when its override is on, else the report's. */
  blockPeriod(site: Site, block: ContentBlock, report: Period): DaySpan;
  /** "1 Dec 2025 – 7 Dec 2025", or one day. */
  spanLabel(span: DaySpan): string;
}

declare module '../../../core/plugins/services' {
  interface SvcServices {
    reports: ReportsService;
  }
}

export function reportsService(app: ReportsApp, clock: Clock): ReportsService {
  const endDay = (site: Site, report: Period) => reportEndDay(report.fixedEndDate, clock.unix(), site.timezone);
  return {
    period: (site, report) => resolveDateRange(report.reportDateRange, endDay(site, report)),
    blockPeriod: (site, block, report) => blockSpan(block, report.reportDateRange, endDay(site, report)),
    spanLabel,
    reportObject: (siteId, id, options) => app.objects.build(siteId, id, options),
    blocks: async (siteId, id) => (await app.reports.findShared(siteId, id))?.content ?? [],
    blockEndpoints: (blockId) => (Object.prototype.hasOwnProperty.call(BLOCK_ENDPOINTS, blockId) ? BLOCK_ENDPOINTS[blockId]! : []),
  };
}
