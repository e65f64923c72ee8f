import type { Transaction } from 'sequelize';
import { type Clock, type Database, insertIfAbsent } from '../../../core';

/** A recipient's send: claimed, then done one way or the other. */
export type SendStatus = 'sending' | 'sent' | 'failed';

export interface SendKey {
  reportId: number;
  queueId: string;
  recipient: string;
}

export interface RecipientSend {
  recipient: string;
  status: SendStatus;
  message: string;
}

/**
 * `{prefix}svc_report_sends`: each recipient's send within a queue. A node
 * claims a recipient with a conditional write before mailing it; a claim
 * still `sending` after its lease ran out belonged to a node that died and
 * may be claimed again.
 */
export class SendStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('report_sends'));
  }

  /** Claims `key` for `node` until unix `leaseUntil`; false when it is done, held by a live claim, or `leaseUntil` has passed. */
  async claim(key: SendKey, batchId: number, node: string, leaseUntil: number): Promise<boolean> {
    const now = this.clock.unix();
    if (leaseUntil <= now) return false;
    const row = {
      report_id: key.reportId,
      queue_id: key.queueId,
      recipient: key.recipient,
      batch_id: batchId,
      status: 'sending',
      message: '',
      node,
      lease_until: leaseUntil,
      time: now,
    };
    if (await insertIfAbsent(this.db, this.db.table('report_sends'), row)) return true;
    const taken = await this.db.execute(
      `UPDATE ${this.t} SET node = ?, lease_until = ?, time = ? WHERE report_id = ? AND queue_id = ? AND recipient = ? AND status = 'sending' AND lease_until < ?`,
      [node, leaseUntil, now, key.reportId, key.queueId, key.recipient, now],
    );
    return taken === 1;
  }

  /** Records the outcome of `node`'s claim on `key`. */
  async finish(key: SendKey, node: string, status: Exclude<SendStatus, 'sending'>, message: string): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET status = ?, message = ?, time = ? WHERE report_id = ? AND queue_id = ? AND recipient = ? AND node = ?`, [
      status,
      message,
      this.clock.unix(),
      key.reportId,
      key.queueId,
      key.recipient,
      node,
    ]);
  }

  /** Extends the leases of `node`'s open claims in a batch to unix `leaseUntil`. */
  async renew(reportId: number, queueId: string, batchId: number, node: string, leaseUntil: number): Promise<void> {
    await this.db.execute(
      `UPDATE ${this.t} SET lease_until = ? WHERE report_id = ? AND queue_id = ? AND batch_id = ? AND node = ? AND status = 'sending'`,
      [leaseUntil, reportId, queueId, batchId, node],
    );
  }

  /** Every recipient send recorded for a batch. */
  async batch(reportId: number, queueId: string, batchId: number): Promise<RecipientSend[]> {
    return this.db.select<RecipientSend>(`SELECT recipient, status, message FROM ${this.t} WHERE report_id = ? AND queue_id = ? AND batch_id = ?`, [
      reportId,
      queueId,
      batchId,
    ]);
  }

  /** Drops sends last written before unix `before`. */
  async purge(before: number): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.t} WHERE time < ?`, [before]);
  }

  async deleteForReport(reportId: number, transaction: Transaction): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.t} WHERE report_id = ?`, [reportId], transaction);
  }
}
