import type { SalesApp } from '../app';
import { FOLD_DELAY, FOLD_HOOK } from './hooks';

/**
 * Keeps the shop roll-ups folded: every hour the finished days of every
 * site (yesterday, and the history when there is some), and a minute after
 * a write that changed folded days, that site's stale days.
 */
export function registerRollups(app: SalesApp): void {
  const { ctx } = app;
  ctx.hooks.declareAction(FOLD_HOOK, ['site_id']);
  ctx.hooks.addAction(FOLD_HOOK, async (siteId) => {
    await app.folder.foldSite(siteId);
  });
  ctx.hooks.addAction('svc_every_hour', async () => {
    const days = await app.folder.foldPending();
    if (days) ctx.logger.info({ days }, `sales roll-ups: folded ${days} days`);
  });
}

/** Marks a site's folded days from `from` on stale and folds them again a minute later (writes around the ingestion path). */
export async function refoldFrom(app: SalesApp, siteId: number, from: number): Promise<void> {
  await app.folder.markFrom(siteId, from);
  await app.ctx.scheduler.scheduleSingle(app.ctx.clock.unix() + FOLD_DELAY, FOLD_HOOK, [siteId]);
}

