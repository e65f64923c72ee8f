import type { Transaction } from 'sequelize';
import type { Database } from '../../../core';
import type { BillingPeriod, SubscriptionEventName, SubscriptionStanding } from '../contract';
import { insertIgnore, insertRows, num, tbl } from '../db';
import type { SubscriptionEvent } from '../ingest/validate';
import { type StoredSubscriptionEvent, replay } from './state';

/** The subscription row of (site, source, subscription_id), created on its first event. */
export async function subscriptionRef(db: Database, siteId: number, source: string, e: SubscriptionEvent, t: Transaction): Promise<number> {
  await insertIgnore(
    db,
    'subscriptions',
    {
      site_id: siteId,
      source,
      subscription_id: e.subscription_id,
      product_id: e.product_id,
      product_name: e.product_name,
      amount: e.amount,
      currency: e.currency,
      billing_period: e.billing_period,
      billing_interval: e.billing_interval,
      mrr: 0,
      gateway: e.gateway,
      country_code: e.country_code,
      status: 'active',
      started_at: e.time,
    },
    t,
  );
  const [row] = await db.select<{ ID: number }>(`SELECT ID FROM ${tbl(db, 'subscriptions')} WHERE site_id = ? AND source = ? AND subscription_id = ?`, [
    siteId,
    source,
    e.subscription_id,
  ], t);
  return num(row!.ID);
}

/** The state of the site's (source, subscription_id) and the start of its current period, or null when it is not stored. */
export async function subscriptionStanding(db: Database, siteId: number, source: string, subscriptionId: string): Promise<SubscriptionStanding | null> {
  const [row] = await db.select<{ status: string; since: number | null }>(
    `SELECT s.status, MAX(p.period_start) AS since FROM ${tbl(db, 'subscriptions')} s LEFT JOIN ${tbl(db, 'subscription_periods')} p ON p.subscription_ref = s.ID
      WHERE s.site_id = ? AND s.source = ? AND s.subscription_id = ? GROUP BY s.ID, s.status`,
    [siteId, source, subscriptionId],
  );
  return row ? { status: row.status as SubscriptionStanding['status'], since: num(row.since) } : null;
}

/**
 * Links a subscription to its subscriber's tracked visits: the first event
 * that names a uid sets it and its first-touch traffic source; later ones
 * change nothing.
 */
export async function linkSubscriber(db: Database, ref: number, uid: string, trafficSource: string, t: Transaction): Promise<void> {
  await db.execute(`UPDATE ${tbl(db, 'subscriptions')} SET uid = ?, traffic_source = ? WHERE ID = ? AND uid = ''`, [uid, trafficSource, ref], t);
}

export async function insertSubscriptionEvents(db: Database, siteId: number, events: ReadonlyArray<{ ref: number; event: SubscriptionEvent }>, t: Transaction): Promise<void> {
  await insertRows(
    db,
    'subscription_events',
    events.map(({ ref, event: e }) => ({
      site_id: siteId,
      subscription_ref: ref,
      event: e.event,
      product_id: e.product_id,
      product_name: e.product_name,
      amount: e.amount,
      currency: e.currency,
      billing_period: e.billing_period,
      billing_interval: e.billing_interval,
      gateway: e.gateway,
      country_code: e.country_code,
      time: e.time,
    })),
    t,
  );
}

interface EventRow {
  event: string;
  time: number | string;
  amount: number | string;
  currency: string;
  product_id: number | string;
  product_name: string;
  billing_period: string;
  billing_interval: number | string;
  gateway: string;
  country_code: string;
}

/** Replays one subscription of the site's events into its periods and current row. */
export async function rebuildSubscription(db: Database, siteId: number, ref: number, t: Transaction): Promise<void> {
  const rows = await db.select<EventRow>(
    `SELECT event, time, amount, currency, product_id, product_name, billing_period, billing_interval, gateway, country_code
       FROM ${tbl(db, 'subscription_events')} WHERE subscription_ref = ? ORDER BY time, ID`,
    [ref],
    t,
  );
  const events: StoredSubscriptionEvent[] = rows.map((r) => ({
    event: r.event as SubscriptionEventName,
    time: num(r.time),
    amount: num(r.amount),
    currency: r.currency,
    product_id: num(r.product_id),
    product_name: r.product_name,
    billing_period: r.billing_period as BillingPeriod,
    billing_interval: num(r.billing_interval),
    gateway: r.gateway,
    country_code: r.country_code,
  }));
  const result = replay(events);
  await db.execute(`DELETE FROM ${tbl(db, 'subscription_periods')} WHERE subscription_ref = ?`, [ref], t);
  await insertRows(
    db,
    'subscription_periods',
    result.periods.map((p) => ({ site_id: siteId, subscription_ref: ref, state: p.state, period_start: p.start, period_end: p.end, mrr: p.mrr, currency: p.currency, product_id: p.product_id })),
    t,
  );
  const l = result.latest;
  await db.execute(
    `UPDATE ${tbl(db, 'subscriptions')} SET product_id = ?, product_name = ?, amount = ?, currency = ?, billing_period = ?, billing_interval = ?,
       mrr = ?, gateway = ?, country_code = ?, status = ?, started_at = ?, first_paid_at = ? WHERE ID = ?`,
    [l.product_id, l.product_name, l.amount, l.currency, l.billing_period, l.billing_interval, result.mrr, l.gateway, l.country_code, result.status, result.startedAt, result.firstPaidAt, ref],
    t,
  );
}
