import type { DayOfWeek, Frequency, WeekOfMonth } from './constants';

/** A block filter in the data routes' `{ key, value }` form, with a canonical key (`status` included). */
export interface BlockFilter {
  key: string;
  value: string;
}

/** A content block (§2.2), stored in the report's `content` column. */
export interface ContentBlock {
  id: string;
  filters: BlockFilter[];
  content: string;
  date_range: string;
  date_range_enabled: boolean;
  fixed_end_date: string;
  comment_title: string;
  comment_text: string;
}

/** A stored report (§2.1) in domain form. */
export interface Report {
  id: number;
  /** The site whose data, timezone and name the report uses. */
  siteId: number;
  name: string;
  dateRange: string;
  format: string;
  frequency: Frequency;
  fixedEndDate: string;
  dayOfWeek: DayOfWeek | null;
  weekOfMonth: WeekOfMonth | null;
  sendTime: string;
  lastEdit: number;
  enabled: boolean;
  scheduled: boolean;
  content: ContentBlock[];
  recipients: string[];
}

/** A report before it is stored: everything but the id, its site and the edit time. */
export type ReportInput = Omit<Report, 'id' | 'siteId' | 'lastEdit'>;

/** Delivery statuses written to the log (§3.1). */
export type DeliveryStatus = 'processing' | 'sending_successful' | 'sending_failed' | 'partly_sent' | 'cron_miss';
/** `lastSendStatus` values: a delivery status, or the report's state when nothing was sent. */
export type ReportStatus = DeliveryStatus | 'scheduled' | 'ready_to_share' | 'concept';

/** The report object of §2.4. */
export interface ReportObject {
  id: number | null;
  name: string;
  format: string;
  enabled: boolean;
  content: ContentBlock[];
  reportDateRange: string;
  fixedEndDate: string;
  frequency: Frequency;
  weekOfMonth: WeekOfMonth | null;
  dayOfWeek: DayOfWeek | null;
  sendTime: string;
  lastEdit: number;
  scheduled: boolean;
  recipients: string[];
  lastSendStatus: ReportStatus | '';
  lastSendMessage: string;
}

/** One row of `{prefix}svc_report_logs` (§2.3). */
export interface LogEntry {
  id: number;
  report_id: number;
  queue_id: string;
  /** Null for the queue-level (parent) entry. */
  batch_id: number | null;
  status: DeliveryStatus;
  message: string;
  time: number;
  date: string;
}

/** An entry of the logs endpoint: one queue with its batches and resolved status. */
export interface QueueLog {
  report_id: number;
  report_name: string;
  queue_id: string;
  date: string;
  /** True for `send-test-report` queues. */
  test: boolean;
  status: DeliveryStatus;
  message: string;
  time: number;
  batches: Array<{ batch_id: number; status: DeliveryStatus; message: string; time: number }>;
}
