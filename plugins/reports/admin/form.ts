import type { SvcEmailBlockDefinition } from '../../../hooks';
import { customBounds } from '../schedule/date-ranges';
import type { ContentBlock, ReportInput } from '../types';

/** What the edit form shows. */
export interface FormValues {
  name: string;
  format: string;
  frequency: string;
  dayOfWeek: string;
  weekOfMonth: string;
  sendTime: string;
  reportDateRange: string;
  customStart: string;
  customEnd: string;
  recipients: string;
  enabled: boolean;
  scheduled: boolean;
  blocks: string[];
}

type Body = Readonly<Record<string, unknown>>;

/** Addresses typed one per line, or separated by commas, semicolons or spaces. */
export const splitAddresses = (text: string): string[] => text.split(/[\s,;]+/).filter(Boolean);
const str = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? String(v[0] ?? '') : '');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

/** The form values of a stored report or of a new report's defaults. */
export function valuesOf(report: ReportInput): FormValues {
  const custom = customBounds(report.dateRange);
  return {
    name: report.name,
    format: report.format,
    frequency: report.frequency,
    dayOfWeek: report.dayOfWeek ?? 'monday',
    weekOfMonth: report.weekOfMonth === null ? '1' : String(report.weekOfMonth),
    sendTime: report.sendTime,
    reportDateRange: custom ? 'custom' : report.dateRange,
    customStart: custom?.start ?? '',
    customEnd: custom?.end ?? '',
    recipients: report.recipients.join('\n'),
    enabled: report.enabled,
    scheduled: report.scheduled,
    blocks: report.content.map((b) => b.id),
  };
}

export function valuesFromBody(body: Body): FormValues {
  return {
    name: str(body.name),
    format: str(body.format),
    frequency: str(body.frequency),
    dayOfWeek: str(body.dayOfWeek),
    weekOfMonth: str(body.weekOfMonth),
    sendTime: str(body.sendTime),
    reportDateRange: str(body.reportDateRange),
    customStart: str(body.customStart),
    customEnd: str(body.customEnd),
    recipients: str(body.recipients),
    enabled: body.enabled === '1',
    scheduled: body.scheduled === '1',
    blocks: list(body.blocks),
  };
}

/**
 * The posted form as the report object the REST API takes, so both go
 * through the same validation. Blocks that were already in the report keep
 * their settings (filters, texts) and order; new ones follow.
 */
export function inputFromValues(values: FormValues, existing: readonly ContentBlock[], definitions: readonly SvcEmailBlockDefinition[]): Record<string, unknown> {
  const chosen = new Set(values.blocks);
  const kept = existing.filter((b) => chosen.has(b.id));
  const added = definitions.filter((d) => chosen.has(d.id) && !kept.some((b) => b.id === d.id)).map((d) => ({ id: d.id }));
  const unknown = values.blocks.filter((id) => !definitions.some((d) => d.id === id) && !kept.some((b) => b.id === id)).map((id) => ({ id }));
  return {
    name: values.name,
    format: values.format,
    frequency: values.frequency,
    dayOfWeek: values.frequency === 'daily' ? null : values.dayOfWeek,
    weekOfMonth: values.frequency === 'monthly' ? (/^-?\d+$/.test(values.weekOfMonth) ? Number(values.weekOfMonth) : values.weekOfMonth) : null,
    sendTime: values.sendTime,
    reportDateRange: values.reportDateRange === 'custom' ? `custom:${values.customStart}:${values.customEnd}` : values.reportDateRange,
    enabled: values.enabled,
    scheduled: values.scheduled,
    recipients: splitAddresses(values.recipients),
    content: [...kept, ...added, ...unknown],
  };
}
