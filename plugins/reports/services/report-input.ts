import {
  DAYS_OF_WEEK,
  DEFAULT_DATE_RANGE,
  DEFAULT_FREQUENCY,
  DEFAULT_SEND_TIME,
  FREQUENCIES,
  WEEKS_OF_MONTH,
  type DayOfWeek,
  type WeekOfMonth,
} from '../constants';
import { dateRangeProblem, isDay } from '../schedule/date-ranges';
import type { ReportInput } from '../types';
import { type BlockRules, parseBlocks } from './blocks-input';
import { choice, FieldProblems, flag, ONE_LINE, refuse, REQUIRED, text } from '../../../core';
import { parseRecipients } from './recipients';

export interface InputRules extends BlockRules {
  /** Valid format slugs (`svc_report_formats`). */
  formats: readonly string[];
}

const SEND_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A new report's values before the caller's fields apply. */
export function defaultInput(formats: readonly string[]): ReportInput {
  return {
    name: '',
    format: formats[0] ?? 'classic',
    frequency: DEFAULT_FREQUENCY,
    dayOfWeek: 'monday',
    weekOfMonth: null,
    sendTime: DEFAULT_SEND_TIME,
    dateRange: DEFAULT_DATE_RANGE,
    fixedEndDate: '',
    enabled: true,
    scheduled: true,
    content: [],
    recipients: [],
  };
}

/**
 * The report object of §2.4 sent to create or update, checked field by
 * field; fields left out keep `base` (the stored report, or the defaults).
 * Every problem is named in one 400 (`data.problems`), before anything is
 * written.
 */
export function parseReportInput(raw: unknown, rules: InputRules, base: ReportInput): ReportInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw refuse('report', 'must be a report object');
  const r = raw as Record<string, unknown>;
  const has = (key: string) => r[key] !== undefined;
  const out: ReportInput = { ...base };
  const problems = new FieldProblems();
  const field = <K extends keyof ReportInput>(key: K, parse: () => ReportInput[K]) => {
    out[key] = problems.check(parse, out[key]);
  };

  if (has('name')) field('name', () => text(r.name, 'name', { max: 255, pattern: ONE_LINE, required: true }));
  else if (out.name === '') problems.add('name', REQUIRED);
  if (has('format')) field('format', () => choice(r.format, 'format', rules.formats));
  else if (!rules.formats.includes(out.format)) problems.add('format', `must be one of ${rules.formats.join(', ')}`);
  if (has('frequency')) field('frequency', () => choice(r.frequency, 'frequency', FREQUENCIES));
  if (has('dayOfWeek')) field('dayOfWeek', () => (r.dayOfWeek === null ? null : choice<DayOfWeek>(r.dayOfWeek, 'dayOfWeek', DAYS_OF_WEEK)));
  if (has('weekOfMonth')) field('weekOfMonth', () => (r.weekOfMonth === null ? null : choice<WeekOfMonth>(r.weekOfMonth, 'weekOfMonth', WEEKS_OF_MONTH)));
  if (has('sendTime')) {
    field('sendTime', () => {
      if (typeof r.sendTime !== 'string' || !SEND_TIME.test(r.sendTime)) throw refuse('sendTime', 'must be a time written HH:MM (00:00 to 23:59)');
      return r.sendTime;
    });
  }
  if (has('reportDateRange')) {
    field('dateRange', () => {
      const range = text(r.reportDateRange, 'reportDateRange', { max: 255, pattern: ONE_LINE });
      const problem = dateRangeProblem(range);
      if (problem) throw refuse('reportDateRange', problem);
      return range;
    });
  }
  if (has('fixedEndDate')) {
    field('fixedEndDate', () => {
      const day = text(r.fixedEndDate, 'fixedEndDate', { max: 16, pattern: ONE_LINE });
      if (day !== '' && !isDay(day)) throw refuse('fixedEndDate', 'must be a date written YYYY-MM-DD, or empty');
      return day;
    });
  }
  if (has('enabled')) field('enabled', () => flag(r.enabled, 'enabled'));
  if (has('scheduled')) field('scheduled', () => flag(r.scheduled, 'scheduled'));
  const recipients = has('recipients') ? problems.check<string[] | null>(() => parseRecipients(r.recipients), null) : out.recipients;
  if (recipients) out.recipients = recipients;
  if (has('content')) field('content', () => parseBlocks(r.content, rules));

  if (out.frequency === 'daily') {
    out.dayOfWeek = null;
    out.weekOfMonth = null;
  } else {
    if (!out.dayOfWeek) problems.add('dayOfWeek', `is needed for ${out.frequency} reports (one of ${DAYS_OF_WEEK.join(', ')})`);
    if (out.frequency === 'weekly') out.weekOfMonth = null;
    else if (out.weekOfMonth === null) problems.add('weekOfMonth', `is needed for monthly reports (one of ${WEEKS_OF_MONTH.join(', ')})`);
  }
  if (recipients && out.enabled && out.scheduled && out.recipients.length === 0) problems.add('recipients', 'a scheduled report needs at least one recipient');
  problems.throwIfAny();
  return out;
}
