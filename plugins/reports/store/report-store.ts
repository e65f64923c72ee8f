import type { Transaction } from 'sequelize';
import type { Clock, Database } from '../../../core';
import type { DayOfWeek, Frequency, WeekOfMonth } from '../constants';
import { normalizeStoredBlock } from '../services/blocks-input';
import type { ContentBlock, Report, ReportInput } from '../types';

interface ReportRow {
  ID: number;
  site_id: number;
  name: string;
  date_range: string;
  format: string;
  frequency: string;
  fixed_end_date: string;
  day_of_week: string | null;
  week_of_month: number | null;
  send_time: string;
  last_edit: number;
  enabled: number | boolean;
  scheduled: number | boolean;
  content: string;
  recipients: string;
}

/** The fields of the shared-link form (§2.4); the only columns read for it. */
export type SharedReportFields = Pick<Report, 'id' | 'name' | 'format' | 'enabled' | 'content' | 'dateRange' | 'fixedEndDate'>;
const SHARED_COLUMNS = ['ID', 'name', 'format', 'enabled', 'content', 'date_range', 'fixed_end_date'];

function parseJsonArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

const parseContent = (text: string): ContentBlock[] => parseJsonArray(text).map(normalizeStoredBlock);

function sharedFields(row: Pick<ReportRow, 'ID' | 'name' | 'format' | 'enabled' | 'content' | 'date_range' | 'fixed_end_date'>): SharedReportFields {
  return {
    id: Number(row.ID),
    name: row.name,
    format: row.format,
    enabled: Boolean(Number(row.enabled)),
    content: parseContent(row.content),
    dateRange: row.date_range,
    fixedEndDate: row.fixed_end_date ?? '',
  };
}

function fromRow(row: ReportRow): Report {
  return {
    ...sharedFields(row),
    siteId: Number(row.site_id),
    frequency: row.frequency as Frequency,
    dayOfWeek: (row.day_of_week || null) as DayOfWeek | null,
    weekOfMonth: row.week_of_month === null ? null : (Number(row.week_of_month) as WeekOfMonth),
    sendTime: row.send_time,
    lastEdit: Number(row.last_edit),
    scheduled: Boolean(Number(row.scheduled)),
    recipients: parseJsonArray(row.recipients).filter((r): r is string => typeof r === 'string'),
  };
}

function toColumns(input: ReportInput, lastEdit: number): Record<string, unknown> {
  return {
    name: input.name,
    date_range: input.dateRange,
    format: input.format,
    frequency: input.frequency,
    fixed_end_date: input.fixedEndDate,
    day_of_week: input.dayOfWeek,
    week_of_month: input.weekOfMonth,
    send_time: input.sendTime,
    last_edit: lastEdit,
    enabled: input.enabled ? 1 : 0,
    scheduled: input.scheduled ? 1 : 0,
    content: JSON.stringify(input.content),
    recipients: JSON.stringify(input.recipients),
  };
}

/** `{prefix}svc_reports`, one site's reports per call. Column names come from code; values are always bound. */
export class ReportStore {
  private exists = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('reports'));
  }

  /** Whether the reports table exists (the hourly evaluation exits early without it). */
  async tableExists(): Promise<boolean> {
    if (!this.exists) this.exists = await this.db.sequelize.getQueryInterface().tableExists(this.db.table('reports'));
    return this.exists;
  }

  async find(siteId: number, id: number): Promise<Report | null> {
    const [row] = await this.db.select<ReportRow>(`SELECT * FROM ${this.t} WHERE site_id = ? AND ID = ?`, [siteId, id]);
    return row ? fromRow(row) : null;
  }

  /** The site of report `id`, for work that starts from a report id alone (a scheduled batch); null when it is gone. */
  async siteOf(id: number): Promise<number | null> {
    const [row] = await this.db.select<{ site_id: number }>(`SELECT site_id FROM ${this.t} WHERE ID = ?`, [id]);
    return row ? Number(row.site_id) : null;
  }

  /** Reads only the columns of the shared-link form. */
  async findShared(siteId: number, id: number): Promise<SharedReportFields | null> {
    const columns = SHARED_COLUMNS.map(this.db.quote).join(', ');
    const [row] = await this.db.select<ReportRow>(`SELECT ${columns} FROM ${this.t} WHERE site_id = ? AND ID = ?`, [siteId, id]);
    return row ? sharedFields(row) : null;
  }

  /** Every report of the site, most recently edited first. */
  async list(siteId: number): Promise<Report[]> {
    const rows = await this.db.select<ReportRow>(`SELECT * FROM ${this.t} WHERE site_id = ? ORDER BY last_edit DESC, ID DESC`, [siteId]);
    return rows.map(fromRow);
  }

  /** The site's reports that are enabled and scheduled (§1 rule 1). */
  async active(siteId: number): Promise<Report[]> {
    const rows = await this.db.select<ReportRow>(`SELECT * FROM ${this.t} WHERE site_id = ? AND enabled = 1 AND scheduled = 1 ORDER BY ID`, [siteId]);
    return rows.map(fromRow);
  }

  async create(siteId: number, input: ReportInput): Promise<number> {
    const columns = { site_id: siteId, ...toColumns(input, this.clock.unix()) };
    const names = Object.keys(columns);
    const { id } = await this.db.insert(
      `INSERT INTO ${this.t} (${names.map(this.db.quote).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      Object.values(columns),
    );
    return id;
  }

  /** Replaces every field of report `id`; false when it does not exist. */
  async update(siteId: number, id: number, input: ReportInput): Promise<boolean> {
    const columns = toColumns(input, this.clock.unix());
    const sets = Object.keys(columns).map((c) => `${this.db.quote(c)} = ?`).join(', ');
    return (await this.db.execute(`UPDATE ${this.t} SET ${sets} WHERE site_id = ? AND ID = ?`, [...Object.values(columns), siteId, id])) > 0;
  }

  /** Sets the end of the data range; a system change, so `last_edit` stays. */
  async setFixedEndDate(siteId: number, id: number, day: string): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET fixed_end_date = ? WHERE site_id = ? AND ID = ?`, [day, siteId, id]);
  }

  async delete(siteId: number, id: number, transaction?: Transaction): Promise<boolean> {
    return (await this.db.execute(`DELETE FROM ${this.t} WHERE site_id = ? AND ID = ?`, [siteId, id], transaction)) > 0;
  }
}
