import type { QueueLog } from '../../types';
import type { Json } from './json';
import type { ReportsTestKernel } from './reports-kernel';

export type ReportFields = Record<string, unknown>;

/** Creates a report over REST at the clock's time; answers its id. */
export async function createReport(k: ReportsTestKernel, fields: ReportFields): Promise<number> {
  const res = await k.action('create', { report: { name: 'Report', recipients: ['owner@example.com'], content: [{ id: 'pages' }], ...fields } });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data.report.id as number;
}

/** Fires `svc_every_hour` at `iso` as `svc cron run --hook` does. */
export async function evaluateAt(k: ReportsTestKernel, iso: string): Promise<void> {
  k.clock.set(iso);
  await k.tk.kernel.scheduler.runRecurring('svc_every_hour', k.clock.now(), true);
}

/** Runs the single events due at `iso`. */
export async function runDueAt(k: ReportsTestKernel, iso: string): Promise<number> {
  k.clock.set(iso);
  return (await k.tk.kernel.scheduler.runDue(k.clock.unix())).ran;
}

/** The aggregated delivery log over REST. */
export async function logs(k: ReportsTestKernel): Promise<QueueLog[]> {
  const res = await k.get('/report/logs');
  if (res.status !== 200) throw new Error(`logs failed: ${res.status} ${res.text}`);
  return (res.body as { data: { logs: QueueLog[] } }).data.logs;
}

/** The queues of one report, oldest first, as `queue_id: status`. */
export async function queuesOf(k: ReportsTestKernel, reportId: number): Promise<string[]> {
  return (await logs(k))
    .filter((l) => l.report_id === reportId)
    .reverse()
    .map((l) => `${l.queue_id}: ${l.status}`);
}

/** The report object of `id` from `GET reports`, undefined when it is not listed. */
export async function reportObject(k: ReportsTestKernel, id: number): Promise<Json> {
  const res = await k.get<{ data: { reports: Array<{ id: number }> } }>('/reports');
  return res.body.data.reports.find((r) => r.id === id);
}

/** Raw rows of the delivery log table, in insertion order. */
export async function logRows(k: ReportsTestKernel, reportId: number): Promise<Array<{ queue_id: string; batch_id: number | null; status: string }>> {
  const db = k.tk.kernel.db;
  const rows = await db.select<{ queue_id: string; batch_id: number | null; status: string }>(
    `SELECT queue_id, batch_id, status FROM ${db.quote(db.table('report_logs'))} WHERE report_id = ? ORDER BY ID`,
    [reportId],
  );
  return rows.map((r) => ({ queue_id: r.queue_id, batch_id: r.batch_id === null ? null : Number(r.batch_id), status: r.status }));
}
