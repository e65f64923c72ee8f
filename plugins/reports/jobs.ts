import type { PluginContext } from '../../core';
import type { ReportsApp } from './app';
import { purgeOldLogs } from './services/retention';

/** The scheduler hooks reports tap: evaluation, batches, log purge and onboarding (§6); and the removal of a site. */
export function registerJobs(ctx: PluginContext, app: ReportsApp): void {
  ctx.hooks.addAction('svc_every_hour', async () => {
    await app.evaluator.run();
  });
  ctx.hooks.addAction('svc_send_email_batch', async (reportId, queueId, batchId) => {
    if (!Number.isSafeInteger(reportId) || typeof queueId !== 'string' || (batchId !== null && !Number.isSafeInteger(batchId))) {
      ctx.logger.warn({ reportId, queueId, batchId }, 'svc_send_email_batch with malformed arguments; ignored');
      return;
    }
    await app.sender.send(reportId, queueId, batchId, { chain: true });
  });
  ctx.hooks.addAction('svc_daily', async () => {
    await purgeOldLogs({ hooks: ctx.hooks, logs: app.logs, queues: app.queues, sends: app.sends, clock: ctx.clock, logger: ctx.logger });
  });
  // A removed site's reports go with their log, queues, sends, guards and pending batches.
  ctx.sites.onRemove(async (siteId) => {
    for (const report of await app.reports.list(siteId)) await app.editor.remove(siteId, report.id);
  });
  ctx.hooks.addAction('svc_create_report_from_onboarding', async (email) => {
    await app.editor.createFromOnboarding((await ctx.sites.current()).id, email);
  });
}
