import type { Transaction } from 'sequelize';
import { type Clock, type Database, insertIfAbsent } from '../../../core';
import type { DeliveryStatus, LogEntry } from '../types';

interface LogRow {
  ID: number;
  report_id: number;
  queue_id: string;
  batch_id: number | null;
  status: string;
  message: string;
  time: number;
  date: string;
}

const toEntry = (row: LogRow): LogEntry => ({
  id: Number(row.ID),
  report_id: Number(row.report_id),
  queue_id: row.queue_id,
  batch_id: row.batch_id === null ? null : Number(row.batch_id),
  status: row.status as DeliveryStatus,
  message: row.message,
  time: Number(row.time),
  date: row.date,
});

/** The `Y-m-d` a queue id carries: the id itself, or the date inside `test-Y-m-d-<timestamp>`. */
export const queueDate = (queueId: string): string => (queueId.startsWith('test-') ? queueId.slice(5, 15) : queueId.slice(0, 10));

/** `{prefix}svc_report_logs`: a parent entry per queue (batch_id NULL) and one per batch. */
export class LogStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('report_logs'));
  }

  private row(siteId: number, reportId: number, queueId: string, batchId: number | null, status: DeliveryStatus, message: string) {
    return { site_id: siteId, report_id: reportId, queue_id: queueId, batch_id: batchId, status, message, time: this.clock.unix(), date: queueDate(queueId) };
  }

  async insertParent(siteId: number, reportId: number, queueId: string, status: DeliveryStatus, message: string): Promise<void> {
    const row = this.row(siteId, reportId, queueId, null, status, message);
    const names = Object.keys(row);
    await this.db.insert(
      `INSERT INTO ${this.t} (${names.map(this.db.quote).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      Object.values(row),
    );
  }

  /**
   * Writes the batch's `processing` entry, which holds the batch for `lease`
   * seconds from its time; false when the batch already has one (a repeat),
   * unless that entry is still `processing` and its lease ran out (the node
   * sending it died), in which case this call takes the batch over.
   */
  async claimBatch(siteId: number, reportId: number, queueId: string, batchId: number, lease: number): Promise<boolean> {
    if (await insertIfAbsent(this.db, this.db.table('report_logs'), this.row(siteId, reportId, queueId, batchId, 'processing', 'Sending this batch.'))) return true;
    const now = this.clock.unix();
    const taken = await this.db.execute(
      `UPDATE ${this.t} SET time = ?, message = ? WHERE report_id = ? AND queue_id = ? AND batch_id = ? AND status = 'processing' AND time < ?`,
      [now, 'Sending the rest of this batch after an interrupted run.', reportId, queueId, batchId, now - lease],
    );
    return taken === 1;
  }

  /** Moves a `processing` batch entry's time to unix `time`, which renews its lease. */
  async renewBatch(reportId: number, queueId: string, batchId: number, time: number): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET time = ? WHERE report_id = ? AND queue_id = ? AND batch_id = ? AND status = 'processing'`, [
      time,
      reportId,
      queueId,
      batchId,
    ]);
  }

  async updateBatch(reportId: number, queueId: string, batchId: number, status: DeliveryStatus, message: string): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET status = ?, message = ?, time = ? WHERE report_id = ? AND queue_id = ? AND batch_id = ?`, [
      status,
      message,
      this.clock.unix(),
      reportId,
      queueId,
      batchId,
    ]);
  }

  /** Sets the queue's final status; its time stays the time the queue was created. */
  async updateParent(reportId: number, queueId: string, status: DeliveryStatus, message: string): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET status = ?, message = ? WHERE report_id = ? AND queue_id = ? AND batch_id IS NULL`, [
      status,
      message,
      reportId,
      queueId,
    ]);
  }

  /** Whether the (report, queue, batch) entry exists; `null` asks for the parent entry. */
  async has(reportId: number, queueId: string, batchId: number | null): Promise<boolean> {
    const rows =
      batchId === null
        ? await this.db.select(`SELECT ID FROM ${this.t} WHERE report_id = ? AND queue_id = ? AND batch_id IS NULL`, [reportId, queueId])
        : await this.db.select(`SELECT ID FROM ${this.t} WHERE report_id = ? AND queue_id = ? AND batch_id = ?`, [reportId, queueId, batchId]);
    return rows.length > 0;
  }

  async queue(reportId: number, queueId: string): Promise<LogEntry[]> {
    const rows = await this.db.select<LogRow>(`SELECT * FROM ${this.t} WHERE report_id = ? AND queue_id = ? ORDER BY ID`, [reportId, queueId]);
    return rows.map(toEntry);
  }

  /** The site's entries written since unix `time` (parents by creation time, with every entry of their queues). */
  async since(siteId: number, time: number): Promise<LogEntry[]> {
    const rows = await this.db.select<LogRow>(
      `SELECT l.* FROM ${this.t} l WHERE l.site_id = ? AND EXISTS (SELECT 1 FROM ${this.t} p WHERE p.site_id = l.site_id AND p.report_id = l.report_id AND p.queue_id = l.queue_id AND p.batch_id IS NULL AND p.time >= ?) ORDER BY l.ID`,
      [siteId, time],
    );
    return rows.map(toEntry);
  }

  /** The most recent parent entry of each of `reportIds`. */
  async latestParents(reportIds: readonly number[]): Promise<Map<number, LogEntry>> {
    if (reportIds.length === 0) return new Map();
    const marks = reportIds.map(() => '?').join(', ');
    const rows = await this.db.select<LogRow>(
      `SELECT * FROM ${this.t} WHERE ID IN (SELECT MAX(ID) FROM ${this.t} WHERE batch_id IS NULL AND report_id IN (${marks}) GROUP BY report_id)`,
      [...reportIds],
    );
    return new Map(rows.map((r) => [Number(r.report_id), toEntry(r)]));
  }

  /** Removes the queues created before unix `before` with all their entries; answers how many queues went. */
  async purge(before: number): Promise<number> {
    const queues = await this.db.execute(`DELETE FROM ${this.t} WHERE batch_id IS NULL AND time < ?`, [before]);
    // MySQL cannot read the table it deletes from except through a derived table.
    await this.db.execute(
      `DELETE FROM ${this.t} WHERE batch_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM (SELECT report_id, queue_id FROM ${this.t} WHERE batch_id IS NULL) p WHERE p.report_id = ${this.t}.report_id AND p.queue_id = ${this.t}.queue_id)`,
    );
    return queues;
  }

  async deleteForReport(reportId: number, transaction: Transaction): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.t} WHERE report_id = ?`, [reportId], transaction);
  }
}
