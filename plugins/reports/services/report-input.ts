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
import { bool, invalid, oneOf, text } from './field-error';
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
 * Any problem is a 400 naming the field, before anything is written.
 */
export function parseReportInput(raw: unknown, rules: InputRules, base: ReportInput): ReportInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('report', 'must be a report object');
  const r = raw as Record<string, unknown>;
  const has = (key: string) => r[key] !== undefined;
  const out: ReportInput = { ...base };

  if (has('name')) out.name = text(r.name, 'name', { max: 255, singleLine: true, required: true });
  if (out.name === '') throw invalid('name', 'must not be empty');
  if (has('format')) out.format = oneOf(r.format, rules.formats, 'format');
  else if (!rules.formats.includes(out.format)) throw invalid('format', `must be one of ${rules.formats.join(', ')}`);
  if (has('frequency')) out.frequency = oneOf(r.frequency, FREQUENCIES, 'frequency');
  if (has('dayOfWeek')) out.dayOfWeek = r.dayOfWeek === null ? null : oneOf<DayOfWeek>(r.dayOfWeek, DAYS_OF_WEEK, 'dayOfWeek');
  if (has('weekOfMonth')) out.weekOfMonth = r.weekOfMonth === null ? null : oneOf<WeekOfMonth>(r.weekOfMonth, WEEKS_OF_MONTH, 'weekOfMonth');
  if (has('sendTime')) {
    if (typeof r.sendTime !== 'string' || !SEND_TIME.test(r.sendTime)) throw invalid('sendTime', 'must be a time written HH:MM (00:00 to 23:59)');
    out.sendTime = r.sendTime;
  }
  if (has('reportDateRange')) {
    const range = text(r.reportDateRange, 'reportDateRange', { max: 255, singleLine: true });
    const problem = dateRangeProblem(range);
    if (problem) throw invalid('reportDateRange', problem);
    out.dateRange = range;
  }
  if (has('fixedEndDate')) {
    const day = text(r.fixedEndDate, 'fixedEndDate', { max: 16, singleLine: true });
    if (day !== '' && !isDay(day)) throw invalid('fixedEndDate', 'must be a date written YYYY-MM-DD, or empty');
    out.fixedEndDate = day;
  }
  if (has('enabled')) out.enabled = bool(r.enabled, 'enabled');
  if (has('scheduled')) out.scheduled = bool(r.scheduled, 'scheduled');
  if (has('recipients')) out.recipients = parseRecipients(r.recipients);
  if (has('content')) out.content = parseBlocks(r.content, rules);

  if (out.frequency === 'daily') {
    out.dayOfWeek = null;
    out.weekOfMonth = null;
  } else {
    if (!out.dayOfWeek) throw invalid('dayOfWeek', `is needed for ${out.frequency} reports (one of ${DAYS_OF_WEEK.join(', ')})`);
    if (out.frequency === 'weekly') out.weekOfMonth = null;
    else if (out.weekOfMonth === null) throw invalid('weekOfMonth', `is needed for monthly reports (one of ${WEEKS_OF_MONTH.join(', ')})`);
  }
  if (out.enabled && out.scheduled && out.recipients.length === 0) throw invalid('recipients', 'a scheduled report needs at least one recipient');
  return out;
}
