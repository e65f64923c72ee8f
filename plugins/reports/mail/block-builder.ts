import type { SvcEmailBlockDefinition, SvcMailReportBlock, SvcQueryData, SvcQueryRow } from '../../../hooks';
import { dashboardUrl, describeError, type Hooks, rangeOfDays, type Site, type StatisticsApi, type SvcLogger } from '../../../core';
import { type DaySpan, blockSpan, resolveDateRange, spanLabel } from '../schedule/date-ranges';
import type { ContentBlock, Report } from '../types';
import { BUILTIN_BLOCKS, type BlockSource, adapterFor, sourceOf } from './block-catalog';
import { rowCells } from './format';

export interface BuiltBlocks {
  /** After `svc_mail_reports_blocks`, in the report's order. */
  blocks: Record<string, SvcMailReportBlock>;
  span: DaySpan;
}

export interface BlockBuilderDeps {
  statistics: StatisticsApi;
  hooks: Hooks;
  logger: SvcLogger;
  baseUrl: string;
}

const BLOCK_ID = /^[a-z0-9_-]{1,64}$/;

/** The explicit query id of a block's data (§1 rule 14). */
export const blockQueryId = (blockId: string): string => `report_block_${blockId.replace(/-/g, '_')}`;

/** Runs each content block through the statistics registry and builds its table rows. */
export class BlockBuilder {
  constructor(private readonly deps: BlockBuilderDeps) {}

  /**
   * Blocks reports may use now: the built-in ones whose data id is
   * registered, then `svc_email_blocks`; malformed or repeated ids are dropped.
   */
  async available(): Promise<SvcEmailBlockDefinition[]> {
    const registered = new Set(this.deps.statistics.list().map((e) => `${e.kind === 'type' ? 'type' : 'datatable'}:${e.base}:${e.id}`));
    const builtins = BUILTIN_BLOCKS.map((b) => structuredClone(b.definition)).filter((d) => {
      const source = sourceOf(d)!;
      return registered.has(`${source.source}:${source.base}:${source.id}`);
    });
    const filtered = await this.deps.hooks.applyFilters('svc_email_blocks', builtins);
    const seen = new Set<string>();
    return (Array.isArray(filtered) ? filtered : builtins).filter((d) => {
      const ok = !!d && typeof d.id === 'string' && BLOCK_ID.test(d.id) && !seen.has(d.id) && typeof d.title === 'string' && Array.isArray(d.header);
      if (ok) seen.add(d.id);
      return ok;
    });
  }

  /** The report's blocks for the period ending `endDay`, `limit` rows each, from its site's data. */
  async build(site: Site, report: Report, endDay: string, limit: number, definitions: readonly SvcEmailBlockDefinition[]): Promise<BuiltBlocks> {
    const span = resolveDateRange(report.dateRange, endDay);
    const byId = new Map(definitions.map((d) => [d.id, d]));
    const blocks: Record<string, SvcMailReportBlock> = {};
    for (const block of report.content) {
      const definition = byId.get(block.id);
      const source = definition && sourceOf(definition);
      if (!definition || !source) continue;
      const days = blockSpan(block, report.dateRange, endDay);
      const rows = await this.rows(site, block, definition, source, days, limit);
      const filters = block.filters.map((f) => `${f.key}: ${f.value}`).join(', ');
      blocks[block.id] = {
        id: block.id,
        title: definition.title,
        subtitle: [spanLabel(days), filters, rows ? '' : 'the data could not be loaded'].filter(Boolean).join(' · '),
        header: definition.header.map(String),
        rows: (rows ?? []).map((r) => rowCells(r, source.columns)),
        url: this.url(site, definition.url, days, block.filters),
        content: block.content,
        comment_title: block.comment_title,
        comment_text: block.comment_text,
      };
    }
    const range = rangeOfDays(span.start, span.end, site.timezone);
    const filtered = await this.deps.hooks.applyFilters('svc_mail_reports_blocks', blocks, range.start, range.end);
    return { blocks: filtered && typeof filtered === 'object' ? filtered : blocks, span };
  }

  /** A block's rows through `svc_mail_report_results`, at most `limit`; null when the data could not be read. */
  private async rows(site: Site, block: ContentBlock, definition: SvcEmailBlockDefinition, source: BlockSource, span: DaySpan, limit: number): Promise<SvcQueryRow[] | null> {
    const { statistics, hooks, logger } = this.deps;
    const queryId = blockQueryId(block.id);
    const query: Record<string, unknown> = { date_start: span.start, date_end: span.end, filters: block.filters, limit };
    if (source.metrics.length) query.metrics = source.metrics;
    if (source.group_by.length) query.group_by = source.group_by;
    const range = rangeOfDays(span.start, span.end, site.timezone);
    const context = { queryId, siteId: site.id, timezone: site.timezone };
    try {
      const data =
        source.source === 'datatable'
          ? await statistics.runTable(source.id, query, context, source.base)
          : await statistics.runType(source.id, query, context, source.base);
      const qd: SvcQueryData = {
        id: queryId,
        date_start: range.start,
        date_end: range.end,
        metrics: source.metrics,
        group_by: source.group_by,
        filters: Object.fromEntries(block.filters.map((f) => [f.key, f.value])),
        limit,
      };
      const raw = await hooks.applyFilters('svc_mail_report_results', adapterFor(definition.id)(data), qd, range.start, range.end);
      return (Array.isArray(raw) ? raw : []).slice(0, limit);
    } catch (err) {
      logger.warn({ block: block.id, queryId, err: describeError(err) }, `report block ${block.id} could not be built`);
      return null;
    }
  }

  /** The block's dashboard page opened on the site, the block's period and filters ("View details"). */
  private url(site: Site, target: string, span: DaySpan, filters: ContentBlock['filters']): string {
    const view = Object.fromEntries(filters.map((f) => [f.key, String(f.value)]));
    return dashboardUrl(this.deps.baseUrl, target, { dateStart: span.start, dateEnd: span.end }, { filters: view, site: site.id });
  }
}
