import type { Clock, Hooks, SvcLogger } from '../../../core';
import { DEFAULT_LOG_RETENTION_DAYS, QUEUE_RETENTION_DAYS } from '../constants';
import type { LogStore } from '../store/log-store';
import type { QueueStore } from '../store/queue-store';
import type { SendStore } from '../store/send-store';

const DAY = 86_400;

/** Log retention in days after `svc_report_log_delete_threshold`; anything but a positive whole number means the default. */
export async function retentionDays(hooks: Hooks): Promise<number> {
  const days = await hooks.applyFilters('svc_report_log_delete_threshold', DEFAULT_LOG_RETENTION_DAYS);
  return Number.isInteger(days) && days >= 1 ? days : DEFAULT_LOG_RETENTION_DAYS;
}

/** Purges delivery log entries past the retention threshold (§1 rule 11) and stale queue snapshots, recipient sends and guards. */
export async function purgeOldLogs(deps: { hooks: Hooks; logs: LogStore; queues: QueueStore; sends: SendStore; clock: Clock; logger: SvcLogger }): Promise<number> {
  const days = await retentionDays(deps.hooks);
  const now = deps.clock.unix();
  const purged = await deps.logs.purge(now - days * DAY);
  const snapshots = now - Math.max(days, QUEUE_RETENTION_DAYS) * DAY;
  await deps.queues.purge(snapshots);
  await deps.sends.purge(snapshots);
  if (purged) deps.logger.info({ purged, days }, 'old report delivery logs purged');
  return purged;
}
