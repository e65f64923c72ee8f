import { DateTime } from 'luxon';
import type { Clock } from '../../../core/clock';
import type { Database } from '../../../core/db/database';
import { describeError } from '../../../core/errors';
import type { SvcLogger } from '../../../core/logger';
import type { Options } from '../../../core/options/options';
import type { PluginContext } from '../../../core/plugins/context';
import type { SubscriptionIntegration } from '../contract';
import { num, tbl } from '../db';
import type { Ingestor } from '../ingest/ingest';
import { MAX_EVENTS } from '../ingest/ingest';
import type { Integrations } from '../integrations/registry';
import { aggregateDay, dayRun } from '../subscriptions/daily';

export const BACKFILL_HOOK = 'svc_sales_backfill_batch';

/** A running backfill of one integration; the option is deleted when it finishes. */
export interface BackfillState {
  first_day: number;
  /** Days scheduled: from the first subscription's day to the day the backfill started. */
  total: number;
  processed: number;
}

export interface BackfillProgress {
  is_processing: boolean;
  progress: number;
  processed: number;
  total: number;
}

const stateOption = (id: string) => `svc_sales_backfill_${id}`;
const MAX_ATTEMPTS = 5;

export interface BackfillDeps {
  db: Database;
  options: Options;
  clock: Clock;
  timezone: string;
  scheduler: PluginContext['scheduler'];
  logger: SvcLogger;
  integrations: Integrations;
  ingestor: Ingestor;
  /** Days aggregated per batch. */
  daysPerBatch: number;
}

/**
 * The backfill after an integration is first activated: its historical
 * subscriptions are imported page by page, then the daily aggregation is
 * rebuilt from the first subscription's day on, a batch of days at a time.
 * Every step is a single scheduled event (unique, claimed by one node, run
 * after a restart), and every step is idempotent, so a step interrupted by a
 * dying node is simply run again.
 */
export class Backfill {
  constructor(private readonly deps: BackfillDeps) {}

  /** Integrations without history to list (the ingestion API) aggregate as their events arrive: nothing to backfill. */
  async start(integration: SubscriptionIntegration, earliest: number | null): Promise<void> {
    const { clock, timezone, options, logger } = this.deps;
    if (earliest === null || !integration.listSubscriptions) return;
    const first = DateTime.fromSeconds(earliest, { zone: timezone }).startOf('day');
    const today = DateTime.fromSeconds(clock.unix(), { zone: timezone }).startOf('day');
    const total = Math.max(1, Math.round(today.diff(first, 'days').days) + 1);
    const state: BackfillState = { first_day: first.toSeconds(), total, processed: 0 };
    await options.set(stateOption(integration.id), state, { autoload: false });
    logger.info({ integration: integration.id, days: total }, `subscription backfill of ${integration.id} started (${total} days)`);
    await this.schedule(integration.id, 'import', '', 0);
  }

  /** The action handler of one step. */
  async run(id: string, phase: string, cursor: string, attempt: number): Promise<void> {
    const state = await this.deps.options.get<BackfillState>(stateOption(id));
    const integration = this.deps.integrations.get(id);
    if (!state || !integration) return;
    try {
      if (phase === 'import') await this.importPage(integration, cursor, state);
      else await this.aggregate(id, Number(cursor), state);
    } catch (err) {
      if (attempt + 1 >= MAX_ATTEMPTS) {
        this.deps.logger.error({ integration: id, phase, err }, `subscription backfill of ${id} abandoned: ${describeError(err)}`);
        await this.deps.options.delete(stateOption(id));
        return;
      }
      this.deps.logger.warn({ integration: id, phase, attempt, err }, `subscription backfill step of ${id} failed; retrying`);
      await this.schedule(id, phase, cursor, attempt + 1, 60 * 2 ** attempt);
    }
  }

  async progress(): Promise<BackfillProgress> {
    let processed = 0;
    let total = 0;
    for (const integration of this.deps.integrations.all()) {
      const state = await this.deps.options.get<BackfillState>(stateOption(integration.id));
      if (!state) continue;
      processed += state.processed;
      total += state.total;
    }
    if (total === 0) return { is_processing: false, progress: 0, processed: 0, total: 0 };
    return { is_processing: true, progress: Math.min(100, Math.floor((processed / total) * 100)), processed, total };
  }

  private async importPage(integration: SubscriptionIntegration, cursor: string, state: BackfillState): Promise<void> {
    const page = await integration.listSubscriptions!(cursor === '' ? null : cursor);
    for (let i = 0; i < page.events.length; i += MAX_EVENTS) {
      const result = await this.deps.ingestor.ingest(page.events.slice(i, i + MAX_EVENTS), { source: integration.id, aggregate: false });
      if (result.rejected.length) {
        this.deps.logger.warn({ integration: integration.id, rejected: result.rejected.slice(0, 5) }, `${result.rejected.length} historical subscription events refused`);
      }
    }
    if (page.next !== null) {
      await this.schedule(integration.id, 'import', page.next, 0);
      return;
    }
    const first = await this.firstImportedDay(integration.id, state.first_day);
    const { timezone } = this.deps;
    const last = DateTime.fromSeconds(state.first_day, { zone: timezone }).plus({ days: state.total - 1 });
    const total = Math.round(last.diff(DateTime.fromSeconds(first, { zone: timezone }), 'days').days) + 1;
    await this.deps.options.set(stateOption(integration.id), { first_day: first, total, processed: 0 }, { autoload: false });
    await this.schedule(integration.id, 'aggregate', String(first), 0);
  }

  /** The day of the integration's earliest stored subscription event, when the history holds one before `day`. */
  private async firstImportedDay(source: string, day: number): Promise<number> {
    const { db, timezone } = this.deps;
    const [row] = await db.select<{ t: number | string | null }>(
      `SELECT MIN(e.time) AS t FROM ${tbl(db, 'subscription_events')} e JOIN ${tbl(db, 'subscriptions')} s ON s.ID = e.subscription_ref WHERE s.source = ?`,
      [source],
    );
    if (row?.t === null || row?.t === undefined) return day;
    return Math.min(day, DateTime.fromSeconds(num(row.t), { zone: timezone }).startOf('day').toSeconds());
  }

  private async aggregate(id: string, from: number, state: BackfillState): Promise<void> {
    const { db, timezone, options } = this.deps;
    const done = Math.round(DateTime.fromSeconds(from, { zone: timezone }).diff(DateTime.fromSeconds(state.first_day, { zone: timezone }), 'days').days);
    const days = dayRun(from, Math.min(this.deps.daysPerBatch, state.total - done), timezone);
    await db.transaction(async (t) => {
      for (const day of days) await aggregateDay(db, day, timezone, t);
    });
    const processed = done + days.length;
    if (processed >= state.total) {
      await options.delete(stateOption(id));
      this.deps.logger.info({ integration: id }, `subscription backfill of ${id} finished`);
      return;
    }
    await options.set(stateOption(id), { ...state, processed }, { autoload: false });
    const next = DateTime.fromSeconds(days[days.length - 1]!, { zone: timezone }).plus({ days: 1 }).toSeconds();
    await this.schedule(id, 'aggregate', String(next), 0);
  }

  private async schedule(id: string, phase: string, cursor: string, attempt: number, delay = 0): Promise<void> {
    await this.deps.scheduler.scheduleSingle(this.deps.clock.unix() + delay, BACKFILL_HOOK, [id, phase, cursor, attempt]);
  }
}
