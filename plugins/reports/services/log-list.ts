import { BATCH_SIZE } from '../constants';
import type { LogStore } from '../store/log-store';
import type { QueueStore } from '../store/queue-store';
import type { ReportStore } from '../store/report-store';
import type { LogEntry, QueueLog } from '../types';
import { batchCount, resolveQueueStatus } from './status';

export interface LogStores {
  logs: LogStore;
  queues: QueueStore;
  reports: ReportStore;
}

const keyOf = (reportId: number, queueId: string) => `${reportId}\u0000${queueId}`;

/** Groups log entries by queue and resolves each queue's status from its parent and batches; newest first. */
async function aggregate(stores: LogStores, siteId: number, entries: readonly LogEntry[]): Promise<QueueLog[]> {
  const groups = new Map<string, { parent?: LogEntry; batches: LogEntry[] }>();
  for (const entry of entries) {
    const key = keyOf(entry.report_id, entry.queue_id);
    const group = groups.get(key) ?? { batches: [] };
    if (entry.batch_id === null) group.parent = entry;
    else group.batches.push(entry);
    groups.set(key, group);
  }
  const parents = [...groups.values()].filter((g): g is { parent: LogEntry; batches: LogEntry[] } => !!g.parent);
  const queues = await stores.queues.findMany(parents.map(({ parent }) => ({ reportId: parent.report_id, queueId: parent.queue_id })));
  const recipients = new Map(queues.map((q) => [keyOf(q.reportId, q.queueId), q.recipients.length]));
  const names = new Map((await stores.reports.list(siteId)).map((r) => [r.id, r.name]));
  return parents
    .map(({ parent, batches }): QueueLog => {
      const expected = batchCount(recipients.get(keyOf(parent.report_id, parent.queue_id)) ?? 0, BATCH_SIZE) || batches.length;
      return {
        report_id: parent.report_id,
        report_name: names.get(parent.report_id) ?? '',
        queue_id: parent.queue_id,
        date: parent.date,
        test: parent.queue_id.startsWith('test-'),
        status: resolveQueueStatus(parent, batches, expected),
        message: parent.message,
        time: parent.time,
        batches: batches
          .sort((a, b) => a.batch_id! - b.batch_id!)
          .map((b) => ({ batch_id: b.batch_id!, status: b.status, message: b.message, time: b.time })),
      };
    })
    .sort((a, b) => b.time - a.time || b.queue_id.localeCompare(a.queue_id));
}

/** The logs endpoint's list: every queue of the site created since unix `since`. */
export async function queueLogs(stores: LogStores, siteId: number, since: number): Promise<QueueLog[]> {
  return aggregate(stores, siteId, await stores.logs.since(siteId, since));
}

/** One queue of the site's report `reportId` in the same form, or null when it has no parent entry. */
export async function queueLog(stores: LogStores, siteId: number, reportId: number, queueId: string): Promise<QueueLog | null> {
  const [log] = await aggregate(stores, siteId, await stores.logs.queue(reportId, queueId));
  return log ?? null;
}
