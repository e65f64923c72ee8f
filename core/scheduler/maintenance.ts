import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { purgeExpiredRateLimits } from '../db/rate-limiter';
import type { HookRegistry } from '../hooks/registry';
import type { SvcLogger } from '../logger';
import type { Transients } from '../options/transients';

export interface MaintenanceDeps {
  hooks: HookRegistry;
  db: Database;
  transients: Transients;
  clock: Clock;
  logger: SvcLogger;
}

/** The kernel's own work on `svc_daily`: expired transients and stale rate-limit counters go. */
export function registerMaintenance({ hooks, db, transients, clock, logger }: MaintenanceDeps): void {
  hooks.addAction('svc_daily', async () => {
    const expiredTransients = await transients.purgeExpired();
    const staleRateLimits = await purgeExpiredRateLimits(db, clock.unix());
    logger.info({ expiredTransients, staleRateLimits }, 'daily maintenance done');
  });
}
