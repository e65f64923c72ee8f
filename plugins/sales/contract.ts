/**
 * What the sales plugin offers other plugins through `ctx.services.get('sales')`.
 * Store integrations (plugins/woocommerce, plugins/stripe) reach ingestion and
 * the subscription backfill through it without importing sales files; the
 * abilities work reaches the datatables through it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PluginContext } from '../../core';

/** Where events came from: `api` for the ingestion route, else an integration id. */
export type EventSource = string;

export const SUBSCRIPTION_EVENTS = ['created', 'renewed', 'trial_started', 'converted', 'canceled', 'expired', 'reactivated'] as const;
export type SubscriptionEventName = (typeof SUBSCRIPTION_EVENTS)[number];
export const BILLING_PERIODS = ['day', 'week', 'month', 'year'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** One event as sent to `POST {api_base}/ecommerce/events` (validated field by field). */
export type IngestEvent = Record<string, unknown>;

export interface IngestRejection {
  index: number;
  code: string;
  message: string;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: IngestRejection[];
}

export interface IngestOptions {
  source: EventSource;
  /** The site the events belong to. */
  siteId: number;
  /**
   * Recompute the daily subscription aggregation of the days the events touch
   * (default true). Backfill imports pass false: its batches aggregate later.
   */
  aggregate?: boolean;
}

/** A page of historical subscription events from a store. */
export interface SubscriptionHistoryPage {
  /** `subscription` events (with ids, so a repeated page is a no-op). */
  events: IngestEvent[];
  /** Cursor of the next page; null after the last one. */
  next: string | null;
  /** Share of the whole history listed up to and with this page (0-1), when the store tells; the backfill shows it as its progress. */
  listed?: number;
}

/** A store that feeds subscriptions; registered by the integration plugins. */
export interface SubscriptionIntegration {
  /** Also the `source` of its events, e.g. `woocommerce`. */
  id: string;
  label: string;
  /** Configured and usable (its settings are filled in). */
  isActive(): Promise<boolean>;
  /** Unix time of the store's first subscription, or null when it has none. */
  earliestSubscriptionDate(): Promise<number | null>;
  /** Lists historical subscriptions for the backfill, page by page (cursor null first). */
  listSubscriptions?(cursor: string | null): Promise<SubscriptionHistoryPage>;
}

/** What one webhook delivery asks of sales. */
export interface WebhookDelivery {
  /** Events to ingest. */
  events: IngestEvent[];
  /** Ids of refunds that failed after they succeeded: taken back (`withdrawRefund`). */
  failedRefunds?: string[];
}

/** A store's webhook receiver: how it reads its deliveries; the sales plugin serves the route, ingests and withdraws. */
export interface StoreWebhook {
  /** The store id: the route `{api_base}/ecommerce/webhooks/{source}` and the `source` of its events. */
  source: EventSource;
  /** The store's name in messages, e.g. `The Stripe API could not be read`. */
  label: string;
  /**
   * Checks a delivery (its raw body and headers) and reads what it asks of
   * sales; null for a delivery that carries nothing (a ping), answered
   * `{ success: true }`. A coded error is the answer; any other failure is a
   * store API out of reach (503 `svc_store_unreachable`, delivered again later).
   */
  receive(raw: Buffer, headers: IncomingHttpHeaders, siteId: number): Promise<WebhookDelivery | null>;
}

/** A REST route as a plugin registers it with `ctx.rest.route`. */
export type WebhookRoute = Parameters<PluginContext['rest']['route']>[0];

/** Input of a datatable run outside REST (abilities). */
export interface DatatableInput {
  /** The site whose sales the rows are. */
  siteId: number;
  /** Query arguments as the REST route takes them (date_start, date_end, metrics, filters, group_by, limit, currency). */
  query: Record<string, unknown>;
  /** Metrics used when none of the requested ones is allowed; none of them allowed either fails with svc_abilities_invalid_metrics. */
  defaultMetrics?: readonly string[];
}

export interface DatatableRun {
  rows: Array<Record<string, unknown>>;
  /** The metrics the rows carry: the requested ones on the allow-list, else the defaults on it. */
  metrics: string[];
}

/** Where a stored subscription stands: its state and since when (the start of its current period). */
export interface SubscriptionStanding {
  status: 'trial' | 'active' | 'canceled' | 'expired';
  since: number;
}

export interface SalesService {
  /** Validates and stores events exactly as the ingestion route does. */
  ingest(events: readonly unknown[], options: IngestOptions): Promise<IngestResult>;
  /** The state of a subscription a sender sent to a site, or null when it has none by that id (integrations detect reactivations with it). */
  subscriptionStanding(siteId: number, source: EventSource, subscriptionId: string): Promise<SubscriptionStanding | null>;
  /**
   * Takes back a refund the sender sent that did not go through after all (a
   * card refund that failed after it succeeded): what it gave back counts
   * again. False when the sender sent no refund by that id.
   */
  withdrawRefund(siteId: number, source: EventSource, refundId: string): Promise<boolean>;
  registerIntegration(integration: SubscriptionIntegration): void;
  /** The webhook route of a store, for the store's plugin to register (`ctx.rest.route`). */
  webhookRoute(store: StoreWebhook): WebhookRoute;
  /** Runs `sales_products` or `subscription_products` as the REST route does; answers the rows and the metrics it ran. */
  datatable(id: string, input: DatatableInput): Promise<DatatableRun>;
}

declare module '../../core/plugins/services' {
  interface SvcServices {
    sales: SalesService;
  }
}

declare module '../../hooks' {
  interface SvcActions {
    /** One resumable step of a subscription backfill (single scheduled event). */
    svc_sales_backfill_batch: [integration: string, phase: string, cursor: string, attempt: number];
    /** Folds a site's pending days into the shop roll-ups (single scheduled event after a write changed folded days). */
    svc_sales_fold: [site_id: number];
  }
}
