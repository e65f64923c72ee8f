import { DEFAULT_SITE_ID } from '../../../core';
import type { SalesApp } from '../app';
import { dayStart } from '../calendar';
import { FOLD_DELAY, FOLD_HOOK } from './hooks';

/**
 * Keeps the shop roll-ups folded: every hour the finished days of every
 * site (yesterday, and the history when there is some), and a minute after
 * a write that changed folded days, that site's stale days. A tracked hit of
 * an earlier day (an import) marks the days its visit changes.
 */
export function registerRollups(app: SalesApp): void {
  const { ctx } = app;
  ctx.hooks.declareAction(FOLD_HOOK, ['site_id']);
  ctx.hooks.addAction(FOLD_HOOK, async (siteId) => {
    await app.folder.foldSite(siteId);
  });
  ctx.hooks.addAction('svc_after_create_statistic', async (_id, statistic) => {
    const siteId = statistic.site_id ?? DEFAULT_SITE_ID;
    // Today's hits are read raw anyway: only a hit of a folded day costs a look.
    if (statistic.time >= dayStart(ctx.clock.unix(), await app.zoneOf(siteId))) return;
    if (await app.folder.markVisit(siteId, statistic.uid, statistic.time)) await ctx.scheduler.scheduleSingle(ctx.clock.unix() + FOLD_DELAY, FOLD_HOOK, [siteId]);
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

