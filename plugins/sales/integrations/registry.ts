import { type Database, describeError, type Options, SvcError, type SvcLogger } from '../../../core';
import type { SubscriptionIntegration } from '../contract';
import { num, tbl } from '../db';

/** Stored when an integration is first seen active: when, and the store's earliest subscription date. */
export interface ActivationRecord {
  activated_at: number;
  earliest: number | null;
}

const activationOption = (id: string) => `svc_sales_integration_${id}`;
const ID = /^[a-z][a-z0-9_-]{0,31}$/;

/** Sources whose subscriptions arrive as events, without a store to list history from: the ingestion API and `svc demo`. */
const LOCAL_SOURCES = [
  { id: 'api', label: 'Ingestion API' },
  { id: 'demo', label: 'Demo shop (svc demo)' },
] as const;

/**
 * Subscription integrations: the built-in local ones (`api`, active once the
 * ingestion route received a subscription event, and `demo`, while demo
 * subscriptions exist) and those store plugins register through the sales
 * service.
 */
export class Integrations {
  private readonly byId = new Map<string, SubscriptionIntegration>();

  constructor(
    private readonly db: Database,
    private readonly options: Options,
    private readonly logger: SvcLogger,
  ) {
    for (const { id, label } of LOCAL_SOURCES) {
      this.register({ id, label, isActive: async () => (await this.localEarliest(id)) !== null, earliestSubscriptionDate: () => this.localEarliest(id) });
    }
  }

  register(integration: SubscriptionIntegration): void {
    if (!ID.test(integration.id)) throw new SvcError('SVC_ERR_SALES_INTEGRATION', `integration id ${integration.id} must match ${ID}`, 500);
    if (this.byId.has(integration.id)) throw new SvcError('SVC_ERR_SALES_INTEGRATION', `integration ${integration.id} is registered twice`, 500);
    this.byId.set(integration.id, integration);
  }

  get(id: string): SubscriptionIntegration | undefined {
    return this.byId.get(id);
  }

  all(): SubscriptionIntegration[] {
    return [...this.byId.values()];
  }

  async active(): Promise<SubscriptionIntegration[]> {
    const out: SubscriptionIntegration[] = [];
    for (const i of this.byId.values()) if (await i.isActive()) out.push(i);
    return out;
  }

  /**
   * Marks integrations that became active since the last look; the first
   * node to mark one (an atomic option insert) gets it back to start its
   * backfill. A store that cannot be reached is tried again at the next look.
   */
  async newlyActivated(now: number): Promise<Array<{ integration: SubscriptionIntegration; earliest: number | null }>> {
    const fresh: Array<{ integration: SubscriptionIntegration; earliest: number | null }> = [];
    for (const integration of await this.active()) {
      if ((await this.options.get(activationOption(integration.id))) !== undefined) continue;
      let earliest: number | null;
      try {
        earliest = await integration.earliestSubscriptionDate();
      } catch (err) {
        this.logger.warn({ integration: integration.id, err }, `cannot read the earliest subscription of ${integration.id}: ${describeError(err)}`);
        continue;
      }
      const record: ActivationRecord = { activated_at: now, earliest };
      if (await this.options.add(activationOption(integration.id), record, { autoload: true })) fresh.push({ integration, earliest: record.earliest });
    }
    return fresh;
  }

  /** Forgets that `id` was activated, so the next look activates it (and backfills) again. */
  async forget(id: string): Promise<void> {
    await this.options.delete(activationOption(id));
  }

  /**
   * The earliest subscription date of the active integrations (the start of
   * the subscription types' window), or null when none is active or none has
   * subscriptions.
   */
  async earliest(): Promise<number | null> {
    let earliest: number | null = null;
    for (const i of await this.active()) {
      const record = await this.options.get<ActivationRecord>(activationOption(i.id));
      const candidates = [record?.earliest ?? null, await this.localEarliest(i.id)].filter((v): v is number => v !== null);
      for (const c of candidates) earliest = earliest === null ? c : Math.min(earliest, c);
    }
    return earliest;
  }

  private async localEarliest(source: string): Promise<number | null> {
    const [row] = await this.db.select<{ t: number | null }>(`SELECT MIN(started_at) AS t FROM ${tbl(this.db, 'subscriptions')} WHERE source = ?`, [source]);
    return row?.t === null || row?.t === undefined ? null : num(row.t);
  }
}
