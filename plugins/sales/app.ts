import type { PluginContext } from '../../core';
import { Activation } from './activation';
import { Backfill } from './backfill/backfill';
import type { SalesService } from './contract';
import { Ingestor } from './ingest/ingest';
import { Integrations } from './integrations/registry';
import { FOLD_DELAY, FOLD_HOOK } from './rollups/hooks';
import { Folder } from './rollups/folder';
import { FoldState } from './rollups/state';

/** Days the backfill aggregates per scheduled batch. */
export const BACKFILL_DAYS_PER_BATCH = 30;

/** The sales plugin's services, built once per kernel. */
export interface SalesApp {
  ctx: PluginContext;
  timezone: string;
  /** The timezone of a site's days (the install's for a site that is gone). */
  zoneOf(siteId: number): Promise<string>;
  activation: Activation;
  ingestor: Ingestor;
  integrations: Integrations;
  backfill: Backfill;
  /** Which days of each site the shop roll-ups hold. */
  folds: FoldState;
  /** Folds finished days into the shop roll-ups. */
  folder: Folder;
  /** Starts the backfill of integrations that became active since the last look. */
  checkIntegrations(): Promise<void>;
  /** Ingests events, then looks for newly active integrations (a first subscription activates `api`). */
  ingest: SalesService['ingest'];
}

export function createSalesApp(ctx: PluginContext): SalesApp {
  const timezone = ctx.config.timezone;
  const zoneOf = async (siteId: number) => (await ctx.sites.get(siteId))?.timezone ?? timezone;
  const activation = new Activation(ctx.options, ctx.clock, timezone);
  const folds = new FoldState(ctx.db);
  const folder = new Folder({
    db: ctx.db,
    clock: ctx.clock,
    state: folds,
    logger: ctx.logger,
    siteIds: async () => (await ctx.sites.list()).map((s) => s.id),
    zoneOf,
    activationDay: () => activation.day(),
  });
  // Folded days a write changed are folded again shortly after, by whichever node runs the scheduler.
  const staled = async (siteId: number) => void (await ctx.scheduler.scheduleSingle(ctx.clock.unix() + FOLD_DELAY, FOLD_HOOK, [siteId]));
  const ingestor = new Ingestor({ db: ctx.db, clock: ctx.clock, zoneOf, activation, campaigns: () => ctx.services.get('campaigns'), folds, staled });
  const integrations = new Integrations(ctx.db, ctx.options, ctx.logger);
  const backfill = new Backfill({
    db: ctx.db,
    options: ctx.options,
    clock: ctx.clock,
    timezone,
    scheduler: ctx.scheduler,
    logger: ctx.logger,
    integrations,
    ingestor,
    daysPerBatch: BACKFILL_DAYS_PER_BATCH,
  });
  const checkIntegrations = async () => {
    for (const { integration, earliest } of await integrations.newlyActivated(ctx.clock.unix())) await backfill.start(integration, earliest);
  };
  return {
    ctx,
    timezone,
    zoneOf,
    activation,
    ingestor,
    integrations,
    backfill,
    folds,
    folder,
    checkIntegrations,
    async ingest(events, options) {
      const result = await ingestor.ingest(events, options);
      if (result.accepted > 0) await checkIntegrations();
      return result;
    },
  };
}
