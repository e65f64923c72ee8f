import type { SvcServices } from '../../../core';

/** The reports plugin's service, reached through `ctx.services`. */
export type ReportsService = SvcServices['reports'];
/** A report object (§2.4) as the reports service builds it. */
export type ReportObject = Exclude<Awaited<ReturnType<ReportsService['reportObject']>>, [] | null>;
/** One content block of a report (§2.2). */
export type ReportBlock = ReportObject['content'][number];
