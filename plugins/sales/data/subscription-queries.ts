import type { Database } from '../../../core/db/database';
import type { TimeRange } from '../../../core/statistics/types';
import { num, tbl } from '../db';

/** Active at instant `at`: the period started at or before it and had not ended. */
const ACTIVE_AT = "p.state = 'active' AND p.period_start <= ? AND (p.period_end IS NULL OR p.period_end > ?)";

export interface DayTotals {
  day: number;
  new_count: number;
  new_revenue: number;
  renewal_count: number;
  renewal_revenue: number;
}

export type DistributionKey = 'gateway' | 'currency' | 'country_code';

/**
 * Subscription figures: states at an instant from the periods table, flows
 * over a window from the daily aggregation (day-aligned windows).
 */
export class SubscriptionQueries {
  constructor(private readonly db: Database) {}

  private t(name: string): string {
    return tbl(this.db, name);
  }

  /** Whether any subscription was recorded. */
  async any(): Promise<boolean> {
    const rows = await this.db.select(`SELECT 1 AS x FROM ${this.t('subscriptions')} LIMIT 1`);
    return rows.length > 0;
  }

  /** MRR and count of the subscriptions active at `at` billing in `currency` (all currencies when null). */
  async activeAt(at: number, currency: string | null): Promise<{ mrr: number; count: number }> {
    const byCurrency = currency === null ? '' : ' AND p.currency = ?';
    const [row] = await this.db.select<Record<string, unknown>>(
      `SELECT COALESCE(SUM(p.mrr), 0) AS mrr, COUNT(*) AS n FROM ${this.t('subscription_periods')} p WHERE ${ACTIVE_AT}${byCurrency}`,
      currency === null ? [at, at] : [at, at, currency],
    );
    return { mrr: num(row?.mrr), count: num(row?.n) };
  }

  /** Subscriptions active at the window start (in `currency`) that are no longer active at its last second. */
  async churned(range: TimeRange, currency: string): Promise<{ mrr: number; count: number }> {
    const last = range.end - 1;
    const [row] = await this.db.select<Record<string, unknown>>(
      `SELECT COALESCE(SUM(p.mrr), 0) AS mrr, COUNT(*) AS n FROM ${this.t('subscription_periods')} p
        WHERE ${ACTIVE_AT} AND p.currency = ?
          AND NOT EXISTS (SELECT 1 FROM ${this.t('subscription_periods')} q WHERE q.subscription_ref = p.subscription_ref
                            AND q.state = 'active' AND q.period_start <= ? AND (q.period_end IS NULL OR q.period_end > ?))`,
      [range.start, range.start, currency, last, last],
    );
    return { mrr: num(row?.mrr), count: num(row?.n) };
  }

  /** Cancellations in the window (every currency). */
  async canceled(range: TimeRange): Promise<number> {
    const [row] = await this.db.select<Record<string, unknown>>(
      `SELECT COALESCE(SUM(canceled_count), 0) AS n FROM ${this.t('subscription_days')} WHERE day >= ? AND day < ?`,
      [range.start, range.end],
    );
    return num(row?.n);
  }

  /** Subscription payments in `currency` before `end`, and the subscriptions that paid at least once by then. */
  async lifetime(end: number, currency: string): Promise<{ revenue: number; paying: number }> {
    const [money] = await this.db.select<Record<string, unknown>>(
      `SELECT COALESCE(SUM(new_revenue + renewal_revenue), 0) AS revenue FROM ${this.t('subscription_days')} WHERE day < ? AND currency = ?`,
      [end, currency],
    );
    const [subs] = await this.db.select<Record<string, unknown>>(
      `SELECT COUNT(*) AS n FROM ${this.t('subscriptions')} WHERE first_paid_at IS NOT NULL AND first_paid_at < ? AND currency = ?`,
      [end, currency],
    );
    return { revenue: num(money?.revenue), paying: num(subs?.n) };
  }

  /** New and renewal payments per day of the window in `currency`. */
  async days(range: TimeRange, currency: string): Promise<DayTotals[]> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT day, SUM(new_count) AS nc, SUM(new_revenue) AS nr, SUM(renewal_count) AS rc, SUM(renewal_revenue) AS rr
         FROM ${this.t('subscription_days')} WHERE day >= ? AND day < ? AND currency = ? GROUP BY day ORDER BY day`,
      [range.start, range.end, currency],
    );
    return rows.map((r) => ({ day: num(r.day), new_count: num(r.nc), new_revenue: num(r.nr), renewal_count: num(r.rc), renewal_revenue: num(r.rr) }));
  }

  /** Subscription events in the window by gateway, currency or country (code from code, never from input). */
  async distribution(range: TimeRange, key: DistributionKey): Promise<Array<{ key: string; count: number }>> {
    const column = this.db.quote(key);
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT ${column} AS k, SUM(events) AS n FROM ${this.t('subscription_days')} WHERE day >= ? AND day < ? GROUP BY ${column} ORDER BY n DESC, k`,
      [range.start, range.end],
    );
    return rows.map((r) => ({ key: String(r.k), count: num(r.n) })).filter((r) => r.count > 0);
  }

  /** Per product and currency at instant `at`: active and trialling subscriptions and the MRR of the active ones. */
  async productStates(at: number): Promise<Array<PerProduct<{ active: number; trialling: number; mrr: number }>>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT p.product_id, p.currency, SUM(CASE WHEN p.state = 'active' THEN 1 ELSE 0 END) AS active,
              SUM(CASE WHEN p.state = 'trial' THEN 1 ELSE 0 END) AS trial, SUM(CASE WHEN p.state = 'active' THEN p.mrr ELSE 0 END) AS mrr
         FROM ${this.t('subscription_periods')} p WHERE p.period_start <= ? AND (p.period_end IS NULL OR p.period_end > ?)
        GROUP BY p.product_id, p.currency`,
      [at, at],
    );
    return rows.map((r) => ({ product_id: num(r.product_id), currency: String(r.currency), active: num(r.active), trialling: num(r.trial), mrr: num(r.mrr) }));
  }

  /** Per product and currency: MRR active at the window start and the part of it churned by the window's end. */
  async productChurn(range: TimeRange): Promise<Array<PerProduct<{ startMrr: number; lostMrr: number }>>> {
    const last = range.end - 1;
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT p.product_id, p.currency, SUM(p.mrr) AS start_mrr,
              SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM ${this.t('subscription_periods')} q WHERE q.subscription_ref = p.subscription_ref
                    AND q.state = 'active' AND q.period_start <= ? AND (q.period_end IS NULL OR q.period_end > ?)) THEN p.mrr ELSE 0 END) AS lost
         FROM ${this.t('subscription_periods')} p WHERE ${ACTIVE_AT} GROUP BY p.product_id, p.currency`,
      [last, last, range.start, range.start],
    );
    return rows.map((r) => ({ product_id: num(r.product_id), currency: String(r.currency), startMrr: num(r.start_mrr), lostMrr: num(r.lost) }));
  }

  /** Cancellations in the window per product and currency. */
  async productCancellations(range: TimeRange): Promise<Array<PerProduct<{ canceled: number }>>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT product_id, currency, SUM(canceled_count) AS n FROM ${this.t('subscription_days')} WHERE day >= ? AND day < ? GROUP BY product_id, currency`,
      [range.start, range.end],
    );
    return rows.map((r) => ({ product_id: num(r.product_id), currency: String(r.currency), canceled: num(r.n) }));
  }

  /** Every (product, currency) pair subscriptions were sold in, with the product's latest name. */
  async productCurrencies(): Promise<Array<{ product_id: number; currency: string; name: string }>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT product_id, currency, MAX(product_name) AS name FROM ${this.t('subscription_events')} GROUP BY product_id, currency ORDER BY product_id, currency`,
    );
    return rows.map((r) => ({ product_id: num(r.product_id), currency: String(r.currency), name: String(r.name) }));
  }

  /** Subscriptions that started in the window (of one product unless 0) with their subscribed periods (active or trial). */
  async cohortMembers(range: TimeRange, productId: number): Promise<CohortMember[]> {
    const byProduct = productId > 0 ? ' AND s.product_id = ?' : '';
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT s.ID AS id, s.started_at, s.billing_period, p.period_start, p.period_end
         FROM ${this.t('subscriptions')} s LEFT JOIN ${this.t('subscription_periods')} p ON p.subscription_ref = s.ID AND p.state IN ('active', 'trial')
        WHERE s.started_at >= ? AND s.started_at < ?${byProduct} ORDER BY s.ID, p.period_start`,
      productId > 0 ? [range.start, range.end, productId] : [range.start, range.end],
    );
    const members = new Map<number, CohortMember>();
    for (const r of rows) {
      const id = num(r.id);
      let m = members.get(id);
      if (!m) members.set(id, (m = { startedAt: num(r.started_at), yearly: r.billing_period === 'year', subscribed: [] }));
      if (r.period_start !== null && r.period_start !== undefined) {
        m.subscribed.push({ start: num(r.period_start), end: r.period_end === null || r.period_end === undefined ? null : num(r.period_end) });
      }
    }
    return [...members.values()];
  }

  /** Products with subscriptions; yearly when every active subscription of the product bills yearly. */
  async products(): Promise<Array<{ id: number; label: string; is_yearly: boolean }>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT product_id, MAX(product_name) AS name, SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END) AS active,
              SUM(CASE WHEN status = 'active' AND billing_period <> 'year' THEN 1 ELSE 0 END) AS other
         FROM ${this.t('subscriptions')} GROUP BY product_id ORDER BY name, product_id`,
    );
    return rows.map((r) => ({ id: num(r.product_id), label: String(r.name), is_yearly: num(r.active) > 0 && num(r.other) === 0 }));
  }
}

export interface CohortMember {
  startedAt: number;
  yearly: boolean;
  /** Periods in which the subscription was active or trialling. */
  subscribed: Array<{ start: number; end: number | null }>;
}

/** A figure of one product in one currency. */
export type PerProduct<T> = { product_id: number; currency: string } & T;
