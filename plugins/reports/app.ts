import type { PluginContext } from '../../core';
import { BlockBuilder } from './mail/block-builder';
import { MailRenderer } from './mail/renderer';
import { BatchSender } from './services/batch-sender';
import { Dispatcher } from './services/dispatcher';
import { ReportEditor } from './services/editor';
import { Evaluator } from './services/evaluator';
import { ReportObjects } from './services/report-objects';
import { LogStore } from './store/log-store';
import { QueueStore } from './store/queue-store';
import { ReportStore } from './store/report-store';
import { SendStore } from './store/send-store';

/** The reports plugin's parts, wired once from the kernel services. */
export interface ReportsApp {
  reports: ReportStore;
  logs: LogStore;
  queues: QueueStore;
  sends: SendStore;
  objects: ReportObjects;
  builder: BlockBuilder;
  renderer: MailRenderer;
  sender: BatchSender;
  dispatcher: Dispatcher;
  evaluator: Evaluator;
  editor: ReportEditor;
}

export function createReportsApp(ctx: PluginContext): ReportsApp {
  const { db, clock, logger, hooks, statistics, scheduler, mailer } = ctx;
  const reports = new ReportStore(db, clock);
  const logs = new LogStore(db, clock);
  const queues = new QueueStore(db, clock);
  const sends = new SendStore(db, clock);
  const objects = new ReportObjects(reports, logs);
  const builder = new BlockBuilder({ statistics, hooks, logger, baseUrl: ctx.config.baseUrl });
  const renderer = new MailRenderer({ builder, hooks, logger, baseUrl: ctx.config.baseUrl, story: () => ctx.services.get('story') });
  const sender = new BatchSender({ reports, logs, queues, sends, renderer, mailer, scheduler, sites: ctx.sites, clock, mailHost: new URL(ctx.config.baseUrl).hostname, logger });
  const dispatcher = new Dispatcher({ reports, logs, queues, sender, renderer, clock, logger });
  const evaluator = new Evaluator({ reports, logs, queues, dispatcher, sites: ctx.sites, clock, logger });
  const editor = new ReportEditor({ db, reports, logs, queues, sends, objects, builder, hooks, statistics, scheduler, logger });
  return { reports, logs, queues, sends, objects, builder, renderer, sender, dispatcher, evaluator, editor };
}
