import type { Clock, SvcLogger } from '../../../core';
import { BATCH_LEASE_SECONDS, BATCH_RENEW_SECONDS } from '../constants';
import type { LogStore } from '../store/log-store';
import type { SendStore } from '../store/send-store';

export interface BatchKey {
  reportId: number;
  queueId: string;
  batchId: number;
}

/**
 * A node's hold on a batch it claimed: the batch entry's time plus
 * `BATCH_LEASE_SECONDS`, renewed every `BATCH_RENEW_SECONDS` together with
 * the node's open recipient claims. Once `held` turns false another node may
 * have taken the batch over, and this one stops claiming recipients.
 */
export class BatchLease {
  private until: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: { logs: LogStore; sends: SendStore; clock: Clock; logger: SvcLogger },
    private readonly key: BatchKey,
    private readonly node: string,
  ) {
    this.until = deps.clock.unix() + BATCH_LEASE_SECONDS;
  }

  /** Unix time the hold ends unless renewed; recipient claims end with it. */
  get end(): number {
    return this.until;
  }

  get held(): boolean {
    return this.deps.clock.unix() < this.until;
  }

  start(): void {
    this.timer = setInterval(() => void this.renew(), BATCH_RENEW_SECONDS * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async renew(): Promise<void> {
    if (!this.held) return;
    const { logs, sends, clock, logger } = this.deps;
    const { reportId, queueId, batchId } = this.key;
    const now = clock.unix();
    const until = now + BATCH_LEASE_SECONDS;
    try {
      await logs.renewBatch(reportId, queueId, batchId, now);
      await sends.renew(reportId, queueId, batchId, this.node, until);
      this.until = until;
    } catch (err) {
      logger.warn({ reportId, queueId, batchId, err }, 'the lease on a report batch could not be renewed');
    }
  }
}
