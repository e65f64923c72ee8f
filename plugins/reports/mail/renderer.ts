import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import { dashboardUrl, type FilterName, type Hooks, type Site, SvcError, type SvcLogger } from '../../../core';
import { DEFAULT_ROWS_PER_BLOCK, MAX_ROWS_PER_BLOCK } from '../constants';
import { type DaySpan, resolveDateRange, spanLabel } from '../schedule/date-ranges';
import type { StoryLinkService } from '../services/story-links';
import type { Report } from '../types';
import type { BlockBuilder } from './block-builder';
import { textPart } from './text-part';

export const EMAIL_VIEWS = path.join(__dirname, '..', 'views', 'email');
/** Where the logos are served (mounted by the plugin). */
export const ASSETS_PATH = '/svc/reports/assets';

export interface ComposedMail {
  subject: string;
  html: string;
  text: string;
}

export interface MailRendererDeps {
  builder: BlockBuilder;
  hooks: Hooks;
  logger: SvcLogger;
  baseUrl: string;
  /** The story plugin's link service, when it is loaded. */
  story(): StoryLinkService | undefined;
}

type TemplateFilter = Extract<FilterName, 'svc_email_template' | 'svc_email_block_template' | 'svc_email_readmore_template'>;

const ADJECTIVE: Record<Report['frequency'], string> = { daily: 'daily', weekly: 'weekly', monthly: 'monthly' };

/** Renders report mails: ejs templates for the main mail, blocks and read-more (§2.6), and a text part. */
export class MailRenderer {
  constructor(private readonly deps: MailRendererDeps) {}

  /** Rows per block after `svc_mail_report_limit`, kept to a sane whole number. */
  async rowLimit(): Promise<number> {
    const limit = await this.deps.hooks.applyFilters('svc_mail_report_limit', DEFAULT_ROWS_PER_BLOCK);
    return Number.isInteger(limit) && limit >= 1 ? Math.min(limit, MAX_ROWS_PER_BLOCK) : DEFAULT_ROWS_PER_BLOCK;
  }

  /** Throws a 409 when `report` cannot be rendered now (a story report without the story plugin). */
  check(report: Pick<Report, 'format'>): void {
    this.storyService(report);
  }

  /** The mail of `site`'s `report` for the period ending `endDay` (normally yesterday), naming the site. */
  async compose(site: Site, report: Report, endDay: string): Promise<ComposedMail> {
    const span = resolveDateRange(report.dateRange, endDay);
    const period = spanLabel(span);
    const body = report.format === 'story' ? await this.storyBody(site, report, period) : await this.classicBody(site, report, endDay, span, period);
    const sentBy = `You receive this ${ADJECTIVE[report.frequency]} report because you are on its recipient list for ${site.name}. Change or stop it under Reports in the svc dashboard.`;
    const domain = `${this.deps.baseUrl}/`;
    const subject = `${report.name} · ${site.name} · ${period}`;
    const readMoreHtml = await this.render('svc_email_readmore_template', 'read-more.ejs', {
      title: body.readMore.title,
      message: body.readMore.message,
      read_more_url: body.readMore.url,
      read_more_text: body.readMore.text,
    });
    const html = await this.render('svc_email_template', 'report.ejs', {
      subject,
      base: domain,
      title: ejs.escapeXML(report.name),
      logo: `${this.deps.baseUrl}${ASSETS_PATH}/logo.png`,
      logo_dark: `${this.deps.baseUrl}${ASSETS_PATH}/logo-dark.png`,
      message: body.message,
      blocks: body.blocksHtml,
      read_more: readMoreHtml,
      sent_by_text: sentBy,
      domain,
    });
    const text = textPart({ title: report.name, message: body.message, blocks: body.blocks, readMore: body.readMore, sentBy, domain });
    return { subject, html, text };
  }

  private async classicBody(site: Site, report: Report, endDay: string, span: DaySpan, period: string) {
    const limit = await this.rowLimit();
    const definitions = await this.deps.builder.available();
    const built = await this.deps.builder.build(site, report, endDay, limit, definitions);
    const blocks = Object.values(built.blocks);
    const parts: string[] = [];
    for (const block of blocks) {
      const table = await ejs.renderFile(path.join(EMAIL_VIEWS, 'table.ejs'), {
        header: block.header,
        rows: block.rows,
        empty: 'No data for this period.',
        content: block.content ?? '',
        comment_title: block.comment_title ?? '',
        comment_text: block.comment_text ?? '',
      });
      parts.push(await this.render('svc_email_block_template', 'block.ejs', { title: block.title, subtitle: block.subtitle, table, url: block.url, 'learn-more': 'View details' }));
    }
    const dashboard = dashboardUrl(this.deps.baseUrl, '/svc-admin/statistics', { dateStart: span.start, dateEnd: span.end }, { site: site.id });
    return {
      message: `Here is how ${site.name} did in your ${ADJECTIVE[report.frequency]} report, covering ${period}.`,
      blocks,
      blocksHtml: parts.join('\n'),
      readMore: {
        title: 'See the full picture',
        message: 'Your dashboard has every page, referrer and goal, for any period you choose.',
        url: dashboard,
        text: 'Open the dashboard',
      },
    };
  }

  private async storyBody(site: Site, report: Report, period: string) {
    const story = this.storyService(report)!;
    return {
      message: `The ${ADJECTIVE[report.frequency]} story of ${site.name} for ${period} is ready: visitors, top pages and more on one page.`,
      blocks: [],
      blocksHtml: '',
      readMore: {
        title: 'Your report is ready',
        message: 'Open the story to see the numbers and charts; no sign-in needed.',
        url: await story.reportLink(site.id, report.id),
        text: 'View the report',
      },
    };
  }

  private storyService(report: Pick<Report, 'format'>): StoryLinkService | undefined {
    if (report.format !== 'story') return undefined;
    const story = this.deps.story();
    if (!story) throw new SvcError('svc_story_unavailable', 'Story reports need the story plugin, which is not loaded.', 409);
    return story;
  }

  /** Renders a template whose path passes through `filter`; a path that is not a readable file falls back to ours. */
  private async render(filter: TemplateFilter, file: string, locals: Record<string, unknown>): Promise<string> {
    const fallback = path.join(EMAIL_VIEWS, file);
    const chosen = await this.deps.hooks.applyFilters(filter, fallback);
    const usable = typeof chosen === 'string' && fs.existsSync(chosen) && fs.statSync(chosen).isFile();
    if (!usable) this.deps.logger.warn({ filter, path: chosen }, `${filter} returned a path that is not a file; the default template is used`);
    return ejs.renderFile(usable ? chosen : fallback, locals);
  }
}
