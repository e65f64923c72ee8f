import { type Database, type Frag, frag, joinFrags, type TimeRange } from '../../../core';
import { monthStart, nextMonthStart } from '../calendar';
import { num, tbl } from '../db';
import { inRanges } from '../rollups/cubes';

/** Periods of the site active at instant `at`: started at or before it and not ended (replacements: site, at, at). */
const ACTIVE_AT = "p.site_id = ? AND p.state = 'active' AND p.period_start <= ? AND (p.period_end IS NULL OR p.period_end > ?)";

export interface DayTotals {
  day: number;
  new_count: number;
  new_revenue: number;
  renewal_count: number;
  renewal_revenue: number;
}

export type DistributionKey = 'gateway' | 'currency' | 'country_code';

/** The months of a window it holds whole, and its other days. */
function spans(range: TimeRange, tz: string): { months: TimeRange[]; days: TimeRange[] } {
  let first = monthStart(range.start, tz);
  if (first < range.start) first = nextMonthStart(first, tz);
  let end = first;
  while (nextMonthStart(end, tz) <= range.end) end = nextMonthStart(end, tz);
  if (end === first) return { months: [], days: [range] };
  return { months: [{ start: first, end }], days: [{ start: range.start, end: first }, { start: end, end: range.end }].filter((r) => r.end > r.start) };
}

/**
 * Subscription figures of one site: states at an instant from the periods
 * table, flows over a window from the daily aggregation (day-aligned
 * windows; the months the window holds whole from their monthly sums).
 * `country` narrows every figure to the subscriptions of one country (their
 * billing country, ISO 3166-1 alpha-2), as a `country` filter asks; null is
 * every one.
 */
export class SubscriptionQueries {
  constructor(
    private readonly db: Database,
    private readonly siteId: number,
    /** The site's timezone, whose months the monthly sums hold. */
    private readonly timezone: string,
    private readonly country: string | null = null,
  ) {}

  /**
   * The daily figures of `months` and `days` (ranges of month and day
   * starts), each row with its `day` (a month's first day for a month row),
   * narrowed by `where` and the country, as derived table `t`.
   */
  private daily(columns: string, parts: { months: readonly TimeRange[]; days: readonly TimeRange[] }, where: Frag = frag('1 = 1')): Frag {
    const country = this.byCountry('country_code');
    const rows = (['month', 'day'] as const)
      .filter((span) => parts[`${span}s`].length > 0)
      .map((span) => {
        const within = inRanges(span, parts[`${span}s`]);
        return frag(
          `SELECT ${span} AS day, ${columns} FROM ${this.t(`subscription_${span}s`)} WHERE ${within.sql} AND ${where.sql}${country.sql}`,
          [...within.params, ...where.params, ...country.params],
        );
      });
    const union = rows.length ? joinFrags(rows, ' UNION ALL ') : frag(`SELECT day, ${columns} FROM ${this.t('subscription_days')} WHERE 1 = 0`);
    return frag(`(${union.sql}) t`, union.params);
  }

  private t(name: string): string {
    return tbl(this.db, name);
  }

  /** ` AND` the site of the row holding `column`, and `<column> = ?` when a country is chosen. */
  private byCountry(column: string): { sql: string; params: unknown[] } {
    const site = { sql: ` AND ${column.replace(/country_code$/, 'site_id')} = ?`, params: [this.siteId] };
    return this.country === null ? site : { sql: `${site.sql} AND ${column} = ?`, params: [this.siteId, this.country] };
  }

  /** Rows of `alias` (carrying `subscription_ref`) joined to their subscription `s`. */
  private ofSubscription(alias: string): string {
    return `JOIN ${this.t('subscriptions')} s ON s.ID = ${alias}.subscription_ref`;
  }

  /** Whether the site recorded any subscription (in any country). */
  async any(): Promise<boolean> {
    const rows = await this.db.select(`SELECT 1 AS x FROM ${this.t('subscriptions')} WHERE site_id = ? LIMIT 1`, [this.siteId]);
    return rows.length > 0;
  }

  /** MRR and count of the subscriptions active at `at` billing in `currency` (all currencies when null). */
  async activeAt(at: number, currency: string | null): Promise<{ mrr: number; count: number }> {
    const byCurrency = currency === null ? '' : ' AND p.currency = ?';
    const country = this.byCountry('s.country_code');
    const [row] = await this.db.select<Record<string, unknown>>(
      `SELECT COALESCE(SUM(p.mrr), 0) AS mrr, COUNT(*) AS n FROM ${this.t('subscription_periods')} p ${this.ofSubscription('p')} WHERE ${ACTIVE_AT}${byCurrency}${country.sql}`,
      [this.siteId, at, at, ...(currency === null ? [] : [currency]), ...country.params],
    );
    return { mrr: num(row?.mrr), count: num(row?.n) };
  }

  /** Subscriptions active at the window start (in `currency`) that are no longer active at its last second. */
  async churned(range: TimeRange, currency: string): Promise<{ mrr: number; count: number }> {
    const last = range.end - 1;
    const country = this.byCountry('s.country_code');
    const [row] = await this.db.select<Record<string, unknown>>(
      `SELECT COALESCE(SUM(p.mrr), 0) AS mrr, COUNT(*) AS n FROM ${this.t('subscription_periods')} p ${this.ofSubscription('p')}
        WHERE ${ACTIVE_AT} AND p.currency = ?${country.sql}
          AND NOT EXISTS (SELECT 1 FROM ${this.t('subscription_periods')} q WHERE q.subscription_ref = p.subscription_ref
                            AND q.state = 'active' AND q.period_start <= ? AND (q.period_end IS NULL OR q.period_end > ?))`,
      [this.siteId, range.start, range.start, currency, ...country.params, last, last],
    );
    return { mrr: num(row?.mrr), count: num(row?.n) };
  }

  /** Cancellations in the window (every currency). */
  async canceled(range: TimeRange): Promise<number> {
    const rows = this.daily('canceled_count', spans(range, this.timezone));
    const [row] = await this.db.select<Record<string, unknown>>(`SELECT COALESCE(SUM(canceled_count), 0) AS n FROM ${rows.sql}`, rows.params);
    return num(row?.n);
  }

  /** Subscription payments in `currency` before `end`, and the subscriptions that paid at least once by then. */
  async lifetime(end: number, currency: string): Promise<{ revenue: number; paying: number }> {
    const country = this.byCountry('country_code');
    // Every month before the one holding `end`, then its days before `end`.
    const month = monthStart(end, this.timezone);
    const paid = this.daily('new_revenue, renewal_revenue', { months: [{ start: 0, end: month }], days: [{ start: month, end }] }, frag('currency = ?', [currency]));
    const [money] = await this.db.select<Record<string, unknown>>(`SELECT COALESCE(SUM(new_revenue + renewal_revenue), 0) AS revenue FROM ${paid.sql}`, paid.params);
    const [subs] = await this.db.select<Record<string, unknown>>(
      `SELECT COUNT(*) AS n FROM ${this.t('subscriptions')} WHERE first_paid_at IS NOT NULL AND first_paid_at < ? AND currency = ?${country.sql}`,
      [end, currency, ...country.params],
    );
    return { revenue: num(money?.revenue), paying: num(subs?.n) };
  }

  /**
   * New and renewal payments per day of the window in `currency`; with
   * `byMonth`, a month the window holds whole is one total at its first day.
   */
  async days(range: TimeRange, currency: string, byMonth = false): Promise<DayTotals[]> {
    const parts = byMonth ? spans(range, this.timezone) : { months: [], days: [range] };
    const daily = this.daily('new_count, new_revenue, renewal_count, renewal_revenue', parts, frag('currency = ?', [currency]));
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT day, SUM(new_count) AS nc, SUM(new_revenue) AS nr, SUM(renewal_count) AS rc, SUM(renewal_revenue) AS rr FROM ${daily.sql} GROUP BY day ORDER BY day`,
      daily.params,
    );
    return rows.map((r) => ({ day: num(r.day), new_count: num(r.nc), new_revenue: num(r.nr), renewal_count: num(r.rc), renewal_revenue: num(r.rr) }));
  }

  /** Subscription events in the window by gateway, currency or country (code from code, never from input). */
  async distribution(range: TimeRange, key: DistributionKey): Promise<Array<{ key: string; count: number }>> {
    const column = this.db.quote(key);
    const daily = this.daily(`${column}, events`, spans(range, this.timezone));
    const rows = await this.db.select<Record<string, unknown>>(`SELECT ${column} AS k, SUM(events) AS n FROM ${daily.sql} GROUP BY ${column} ORDER BY n DESC, k`, daily.params);
    return rows.map((r) => ({ key: String(r.k), count: num(r.n) })).filter((r) => r.count > 0);
  }

  /** Per product, traffic source and currency at instant `at`: active and trialling subscriptions and the MRR of the active ones. */
  async productStates(at: number): Promise<Array<PerProduct<{ active: number; trialling: number; mrr: number }>>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT p.product_id, s.traffic_source AS source, p.currency, SUM(CASE WHEN p.state = 'active' THEN 1 ELSE 0 END) AS active,
              SUM(CASE WHEN p.state = 'trial' THEN 1 ELSE 0 END) AS trial, SUM(CASE WHEN p.state = 'active' THEN p.mrr ELSE 0 END) AS mrr
         FROM ${this.t('subscription_periods')} p ${this.ofSubscription('p')}
        WHERE p.site_id = ? AND p.period_start <= ? AND (p.period_end IS NULL OR p.period_end > ?)${this.byCountry('s.country_code').sql}
        GROUP BY p.product_id, s.traffic_source, p.currency`,
      [this.siteId, at, at, ...this.byCountry('s.country_code').params],
    );
    return rows.map((r) => ({ ...perProduct(r), active: num(r.active), trialling: num(r.trial), mrr: num(r.mrr) }));
  }

  /** Per product, traffic source and currency: MRR active at the window start and the part of it churned by the window's end. */
  async productChurn(range: TimeRange): Promise<Array<PerProduct<{ startMrr: number; lostMrr: number }>>> {
    const last = range.end - 1;
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT p.product_id, s.traffic_source AS source, p.currency, SUM(p.mrr) AS start_mrr,
              SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM ${this.t('subscription_periods')} q WHERE q.subscription_ref = p.subscription_ref
                    AND q.state = 'active' AND q.period_start <= ? AND (q.period_end IS NULL OR q.period_end > ?)) THEN p.mrr ELSE 0 END) AS lost
         FROM ${this.t('subscription_periods')} p ${this.ofSubscription('p')}
        WHERE ${ACTIVE_AT}${this.byCountry('s.country_code').sql} GROUP BY p.product_id, s.traffic_source, p.currency`,
      [last, last, this.siteId, range.start, range.start, ...this.byCountry('s.country_code').params],
    );
    return rows.map((r) => ({ ...perProduct(r), startMrr: num(r.start_mrr), lostMrr: num(r.lost) }));
  }

  /** Cancellations in the window per product, traffic source and currency. */
  async productCancellations(range: TimeRange): Promise<Array<PerProduct<{ canceled: number }>>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT e.product_id, s.traffic_source AS source, e.currency, COUNT(*) AS n
         FROM ${this.t('subscription_events')} e ${this.ofSubscription('e')}
        WHERE e.event = 'canceled' AND e.time >= ? AND e.time < ?${this.byCountry('s.country_code').sql} GROUP BY e.product_id, s.traffic_source, e.currency`,
      [range.start, range.end, ...this.byCountry('s.country_code').params],
    );
    return rows.map((r) => ({ ...perProduct(r), canceled: num(r.n) }));
  }

  /** Every (product, traffic source, currency) subscriptions were sold in, with the product's latest name. */
  async productCurrencies(): Promise<Array<PerProduct<{ name: string }>>> {
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT e.product_id, s.traffic_source AS source, e.currency, MAX(e.product_name) AS name
         FROM ${this.t('subscription_events')} e ${this.ofSubscription('e')}
        WHERE 1 = 1${this.byCountry('s.country_code').sql}
        GROUP BY e.product_id, s.traffic_source, e.currency ORDER BY e.product_id, e.currency`,
      this.byCountry('s.country_code').params,
    );
    return rows.map((r) => ({ ...perProduct(r), name: String(r.name) }));
  }

  /** Subscriptions that started in the window (of one product unless 0) with their subscribed periods (active or trial). */
  async cohortMembers(range: TimeRange, productId: number): Promise<CohortMember[]> {
    const byProduct = productId > 0 ? ' AND s.product_id = ?' : '';
    const country = this.byCountry('s.country_code');
    const rows = await this.db.select<Record<string, unknown>>(
      `SELECT s.ID AS id, s.started_at, s.billing_period, p.period_start, p.period_end
         FROM ${this.t('subscriptions')} s LEFT JOIN ${this.t('subscription_periods')} p ON p.subscription_ref = s.ID AND p.state IN ('active', 'trial')
        WHERE s.started_at >= ? AND s.started_at < ?${byProduct}${country.sql} ORDER BY s.ID, p.period_start`,
      [range.start, range.end, ...(productId > 0 ? [productId] : []), ...country.params],
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
         FROM ${this.t('subscriptions')} WHERE 1 = 1${this.byCountry('country_code').sql} GROUP BY product_id ORDER BY name, product_id`,
      this.byCountry('country_code').params,
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

/** A figure of one product, sold to visitors of one first-touch traffic source ('' unknown), in one currency. */
export type PerProduct<T> = { product_id: number; source: string; currency: string } & T;

const perProduct = (r: Record<string, unknown>) => ({ product_id: num(r.product_id), source: String(r.source ?? ''), currency: String(r.currency) });


