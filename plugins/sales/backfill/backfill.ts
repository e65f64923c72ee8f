import { DateTime } from 'luxon';
import { type Clock, type Database, DEFAULT_SITE_ID, describeError, type Options, type PluginContext, type SvcLogger } from '../../../core';
import type { SubscriptionIntegration } from '../contract';
import { num, tbl } from '../db';
import type { Ingestor } from '../ingest/ingest';
import { MAX_EVENTS } from '../ingest/ingest';
import type { Integrations } from '../integrations/registry';
import { aggregateDays, dayRun } from '../subscriptions/daily';

export const BACKFILL_HOOK = 'svc_sales_backfill_batch';

/** A running backfill of one integration; the option is deleted when it finishes. */
export interface BackfillState {
  first_day: number;
  /** Days scheduled: from the first subscription's day to the day the backfill started. */
  total: number;
  /** Days added up so far. */
  processed: number;
  /** Listing the store's history, then adding it up day by day (absent in states of older versions: read as importing). */
  phase?: 'import' | 'aggregate';
  /** Pages of history listed so far. */
  pages?: number;
  /** Share of the history listed so far (0-1). */
  listed?: number;
}

/** ecommerce.md §2.10, plus, while one runs, what the banner says: the phase and the integrations at work. */
export interface BackfillProgress {
  is_processing: boolean;
  /** 0-100 over the whole run: listing the history is the first half, adding it up the second. */
  progress: number;
  processed: number;
  total: number;
  phase?: 'fetching' | 'adding_up';
  integrations?: string[];
}

/** How the last backfill of an integration ended. */
export interface BackfillOutcome {
  outcome: 'finished' | 'abandoned';
  at: number;
  days: number;
  message: string;
}

const stateOption = (id: string) => `svc_sales_backfill_${id}`;
const outcomeOption = (id: string) => `svc_sales_backfill_last_${id}`;
const MAX_ATTEMPTS = 5;
const IDLE: BackfillProgress = { is_processing: false, progress: 0, processed: 0, total: 0 };

/** The percentage of one run: the listing counts for the first half (a store without a total counts pages, nearing half), adding up for the second. */
function percentDone(state: BackfillState): number {
  if (state.phase !== 'aggregate') {
    const pages = state.pages ?? 0;
    return Math.floor(50 * Math.min(1, state.listed ?? pages / (pages + 1)));
  }
  return 50 + Math.floor(50 * Math.min(1, state.total > 0 ? state.processed / state.total : 1));
}

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

  /**
   * Starts the backfill of an integration: `started`, `running` when one is
   * under way already (it goes on, it is not started over), or `nothing` for
   * an integration without history to list (the ingestion API and the demo
   * aggregate as their events arrive) or without subscriptions.
   */
  async start(integration: SubscriptionIntegration, earliest: number | null): Promise<'started' | 'running' | 'nothing'> {
    const { clock, timezone, options, logger } = this.deps;
    if (earliest === null || !integration.listSubscriptions) return 'nothing';
    const first = DateTime.fromSeconds(earliest, { zone: timezone }).startOf('day');
    const today = DateTime.fromSeconds(clock.unix(), { zone: timezone }).startOf('day');
    const total = Math.max(1, Math.round(today.diff(first, 'days').days) + 1);
    const state: BackfillState = { first_day: first.toSeconds(), total, processed: 0, phase: 'import', pages: 0 };
    if (!(await options.add(stateOption(integration.id), state, { autoload: false }))) return 'running';
    logger.info({ integration: integration.id, days: total }, `subscription backfill of ${integration.id} started (${total} days)`);
    await this.schedule(integration.id, 'import', '', 0);
    return 'started';
  }

  /** The state of the backfill of `id`, or null when none runs. */
  async running(id: string): Promise<BackfillState | null> {
    return (await this.deps.options.get<BackfillState>(stateOption(id))) ?? null;
  }

  /** How the last backfill of `id` ended, or null. */
  async lastOutcome(id: string): Promise<BackfillOutcome | null> {
    return (await this.deps.options.get<BackfillOutcome>(outcomeOption(id))) ?? null;
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
        await this.end(id, { outcome: 'abandoned', at: this.deps.clock.unix(), days: state.processed, message: describeError(err) });
        return;
      }
      this.deps.logger.warn({ integration: id, phase, attempt, err }, `subscription backfill step of ${id} failed; retrying`);
      await this.schedule(id, phase, cursor, attempt + 1, 60 * 2 ** attempt);
    }
  }

  /** Progress of every running backfill together (§2.10); the percentage is the mean of the runs'. */
  async progress(): Promise<BackfillProgress> {
    const runs: Array<{ label: string; state: BackfillState }> = [];
    for (const integration of this.deps.integrations.all()) {
      const state = await this.running(integration.id);
      if (state) runs.push({ label: integration.label, state });
    }
    if (runs.length === 0) return IDLE;
    return {
      is_processing: true,
      progress: Math.floor(runs.reduce((sum, r) => sum + percentDone(r.state), 0) / runs.length),
      processed: runs.reduce((sum, r) => sum + r.state.processed, 0),
      total: runs.reduce((sum, r) => sum + r.state.total, 0),
      phase: runs.some((r) => r.state.phase !== 'aggregate') ? 'fetching' : 'adding_up',
      integrations: runs.map((r) => r.label),
    };
  }

  /** The percentage of the backfill of `id`, or null when none runs. */
  async percentOf(id: string): Promise<number | null> {
    const state = await this.running(id);
    return state ? percentDone(state) : null;
  }

  private async importPage(integration: SubscriptionIntegration, cursor: string, state: BackfillState): Promise<void> {
    const page = await integration.listSubscriptions!(cursor === '' ? null : cursor);
    const listed = typeof page.listed === 'number' && page.listed >= 0 ? Math.min(1, page.listed) : undefined;
    await this.deps.options.set(stateOption(integration.id), { ...state, phase: 'import', pages: (state.pages ?? 0) + 1, listed }, { autoload: false });
    for (let i = 0; i < page.events.length; i += MAX_EVENTS) {
      const result = await this.deps.ingestor.ingest(page.events.slice(i, i + MAX_EVENTS), { source: integration.id, siteId: DEFAULT_SITE_ID, aggregate: false });
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
    await this.deps.options.set(stateOption(integration.id), { first_day: first, total, processed: 0, phase: 'aggregate' }, { autoload: false });
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
      await aggregateDays(db, DEFAULT_SITE_ID, days, timezone, t);
    });
    const processed = done + days.length;
    if (processed >= state.total) {
      await this.end(id, { outcome: 'finished', at: this.deps.clock.unix(), days: processed, message: '' });
      this.deps.logger.info({ integration: id }, `subscription backfill of ${id} finished`);
      return;
    }
    await options.set(stateOption(id), { ...state, phase: 'aggregate', processed }, { autoload: false });
    const next = DateTime.fromSeconds(days[days.length - 1]!, { zone: timezone }).plus({ days: 1 }).toSeconds();
    await this.schedule(id, 'aggregate', String(next), 0);
  }

  private async end(id: string, outcome: BackfillOutcome): Promise<void> {
    await this.deps.options.set(outcomeOption(id), outcome, { autoload: false });
    await this.deps.options.delete(stateOption(id));
  }

  private async schedule(id: string, phase: string, cursor: string, attempt: number, delay = 0): Promise<void> {
    await this.deps.scheduler.scheduleSingle(this.deps.clock.unix() + delay, BACKFILL_HOOK, [id, phase, cursor, attempt]);
  }
}
