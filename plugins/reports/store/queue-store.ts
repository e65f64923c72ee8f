import type { Transaction } from 'sequelize';
import { type Clock, type Database, insertIfAbsent } from '../../../core';

export interface Queue {
  reportId: number;
  queueId: string;
  recipients: string[];
  sent: number;
  failed: number;
  created: number;
}

interface QueueRow {
  report_id: number;
  queue_id: string;
  recipients: string;
  sent: number;
  failed: number;
  created: number;
}

const toQueue = (row: QueueRow): Queue => ({
  reportId: Number(row.report_id),
  queueId: row.queue_id,
  recipients: JSON.parse(row.recipients) as string[],
  sent: Number(row.sent),
  failed: Number(row.failed),
  created: Number(row.created),
});

/**
 * Queue snapshots (`{prefix}svc_report_queues`) and per-report guards
 * (`{prefix}svc_report_guards`). Both are claimed with a unique key, so two
 * app nodes doing the same thing at once agree on one winner.
 */
export class QueueStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('report_queues'));
  }

  /** Creates the queue with its recipients; false when it already exists. */
  create(reportId: number, queueId: string, recipients: readonly string[]): Promise<boolean> {
    return insertIfAbsent(this.db, this.db.table('report_queues'), {
      report_id: reportId,
      queue_id: queueId,
      recipients: JSON.stringify(recipients),
      sent: 0,
      failed: 0,
      created: this.clock.unix(),
    });
  }

  async find(reportId: number, queueId: string): Promise<Queue | null> {
    const [row] = await this.db.select<QueueRow>(`SELECT * FROM ${this.t} WHERE report_id = ? AND queue_id = ?`, [reportId, queueId]);
    return row ? toQueue(row) : null;
  }

  async findMany(keys: ReadonlyArray<{ reportId: number; queueId: string }>): Promise<Queue[]> {
    if (keys.length === 0) return [];
    const where = keys.map(() => '(report_id = ? AND queue_id = ?)').join(' OR ');
    const rows = await this.db.select<QueueRow>(`SELECT * FROM ${this.t} WHERE ${where}`, keys.flatMap((k) => [k.reportId, k.queueId]));
    return rows.map(toQueue);
  }

  /** Sets the queue's counts from its recipients' recorded sends and answers the new totals. */
  async recount(reportId: number, queueId: string): Promise<Queue | null> {
    const sends = this.db.quote(this.db.table('report_sends'));
    const count = (status: 'sent' | 'failed') => `(SELECT COUNT(*) FROM ${sends} s WHERE s.report_id = ? AND s.queue_id = ? AND s.status = '${status}')`;
    await this.db.execute(`UPDATE ${this.t} SET sent = ${count('sent')}, failed = ${count('failed')} WHERE report_id = ? AND queue_id = ?`, [
      reportId,
      queueId,
      reportId,
      queueId,
      reportId,
      queueId,
    ]);
    return this.find(reportId, queueId);
  }

  /**
   * Sets the per-report guard until unix `expires` unless a live one exists;
   * true when this caller holds it now (§1 rule 4).
   */
  async acquireGuard(reportId: number, expires: number): Promise<boolean> {
    const guards = this.db.table('report_guards');
    await this.db.execute(`DELETE FROM ${this.db.quote(guards)} WHERE report_id = ? AND expires <= ?`, [reportId, this.clock.unix()]);
    return insertIfAbsent(this.db, guards, { report_id: reportId, expires });
  }

  /** Drops queue snapshots created before unix `before` and expired guards. */
  async purge(before: number): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.t} WHERE created < ?`, [before]);
    await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('report_guards'))} WHERE expires <= ?`, [this.clock.unix()]);
  }

  async deleteForReport(reportId: number, transaction: Transaction): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.t} WHERE report_id = ?`, [reportId], transaction);
    await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('report_guards'))} WHERE report_id = ?`, [reportId], transaction);
  }
}
