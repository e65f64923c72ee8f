import type { Site } from '../../../core';
import { storyBlock } from '../shared/blocks';
import type { ReportObject, ReportsService } from './report-types';

export interface StoryBlockView {
  id: string;
  title: string;
  subtitle: string;
  content: string;
  comment_title: string;
  comment_text: string;
  start: string;
  end: string;
  /** The block's filters as the data routes take them (JSON). */
  filters: string;
  /** False for blocks the story cannot show data for (their texts still appear). */
  hasData: boolean;
}

export interface StoryView {
  report: { name: string };
  period: string;
  blocks: StoryBlockView[];
}

/** What the story page shows of a site's report in its shared-link form: only fields that form carries. */
export function storyView(site: Site, report: ReportObject, reports: ReportsService): StoryView {
  return {
    report: { name: report.name },
    period: reports.spanLabel(reports.period(site, report)),
    blocks: report.content.map((block) => {
      const spec = storyBlock(block.id);
      const span = reports.blockPeriod(site, block, report);
      const own = block.date_range_enabled && block.date_range ? reports.spanLabel(span) : '';
      const filters = block.filters.map((f) => `${f.key}: ${f.value}`).join(', ');
      return {
        id: block.id,
        title: spec?.title ?? block.id,
        subtitle: [own, filters].filter(Boolean).join(' · '),
        content: block.content,
        comment_title: block.comment_title,
        comment_text: block.comment_text,
        start: span.start,
        end: span.end,
        filters: JSON.stringify(block.filters.map((f) => ({ key: f.key, value: f.value }))),
        hasData: spec !== null && reports.blockEndpoints(block.id).length > 0,
      };
    }),
  };
}
