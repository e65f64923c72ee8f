import type { Transaction } from 'sequelize';
import { badRequest, type Clock, type Database, insertIfAbsent, type SvcServices } from '../../../core';
import type { IngestOptions, IngestRejection, IngestResult } from '../contract';
import { insertIgnore, insertRows } from '../db';
import type { Activation } from '../activation';
import { daysOf } from '../calendar';
import { markWritten, type Written } from '../rollups/marks';
import type { FoldState } from '../rollups/state';
import { aggregateDays } from '../subscriptions/daily';
import { insertSubscriptionEvents, linkSubscriber, rebuildSubscription, subscriptionRef } from '../subscriptions/store';
import { FieldError } from './fields';
import { type OrderEvent, type SubscriptionEvent, type ValidEvent, type VisitorEvent, validateEvent } from './validate';
import { type PlannedRefund, RefundWriter } from './refunds';
import { VisitorLinker } from './visitor-link';

export const MAX_EVENTS = 1000;

interface Valid {
  index: number;
  event: ValidEvent;
}

/**
 * The one ingestion path of the ingestion route and the store integrations.
 * Every event is validated on its own; the valid ones are written in one
 * transaction (an event and its rows are all written or none is), repeats of
 * an event id, an order id or a refund id count as duplicates. A refund that
 * does not fit its order is rejected by itself.
 */
export class Ingestor {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      zoneOf: (siteId: number) => Promise<string>;
      activation: Activation;
      campaigns: () => SvcServices['campaigns'] | undefined;
      /** The roll-ups' fold state, for marking the folded days a write changes. */
      folds: FoldState;
      /** Called after a write marked folded days of the site stale. */
      staled: (siteId: number) => Promise<void>;
    },
  ) {}

  async ingest(events: readonly unknown[], options: IngestOptions): Promise<IngestResult> {
    if (events.length > MAX_EVENTS) throw badRequest(`At most ${MAX_EVENTS} events per call; this one has ${events.length}.`, 'svc_too_many_events', { field: 'events' });
    const now = this.deps.clock.unix();
    const valid: Valid[] = [];
    const rejected: IngestRejection[] = [];
    events.forEach((raw, index) => {
      try {
        valid.push({ index, event: validateEvent(raw, now) });
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
        rejected.push({ index, code: err.code, message: err.message });
      }
    });
    if (valid.length === 0) return { accepted: 0, duplicates: 0, rejected };

    const written = await this.deps.db.transaction((t) => this.write(valid, options, now, t), { writes: true });
    if (written.shopTimes.length) await this.deps.activation.noteEvents(Math.min(...written.shopTimes));
    if (written.staled) await this.deps.staled(options.siteId);
    return {
      accepted: written.accepted,
      duplicates: valid.length - written.accepted - written.rejected.length,
      rejected: [...rejected, ...written.rejected].sort((a, b) => a.index - b.index),
    };
  }

  /** Takes back a stored refund of the site that did not go through after all; false when there is none by that id. */
  async withdrawRefund(siteId: number, source: string, refundId: string): Promise<boolean> {
    const { db } = this.deps;
    const timezone = await this.deps.zoneOf(siteId);
    const { withdrawn, staled } = await db.transaction(async (t) => {
      const time = await new RefundWriter(db).withdraw(siteId, source, refundId, t);
      if (time === null) return { withdrawn: false, staled: 0 };
      return { withdrawn: true, staled: await markWritten(db, this.deps.folds, siteId, timezone, { times: [time], orders: [], carts: [] }, t) };
    }, { writes: true });
    if (staled) await this.deps.staled(siteId);
    return withdrawn;
  }

  private async write(valid: readonly Valid[], options: IngestOptions, now: number, t: Transaction) {
    const { db } = this.deps;
    const { siteId } = options;
    const linker = new VisitorLinker(db, siteId, this.deps.campaigns);
    const refunds = new RefundWriter(db);
    const rejected: IngestRejection[] = [];
    const refs = new Map<string, number>();
    const visitorRows: Array<Record<string, unknown>> = [];
    const subscriptionEvents: Array<{ ref: number; event: SubscriptionEvent }> = [];
    const shopTimes: number[] = [];
    const shop: Written = { times: [], orders: [], carts: [] };
    let accepted = 0;
    for (const { index, event } of valid) {
      let refund: PlannedRefund | null = null;
      if (event.type === 'refund') {
        // A refund is checked against its order before its id is taken, so a refused one can be sent again.
        try {
          refund = await refunds.plan(event, siteId, options.source, t);
          if (!refund) continue;
        } catch (err) {
          if (!(err instanceof FieldError)) throw err;
          rejected.push({ index, code: err.code, message: err.message });
          continue;
        }
      }
      if (event.id !== null) {
        const fresh = await insertIfAbsent(db, db.table('ecommerce_received'), { event_id: `${options.source}:${event.id}`, source: options.source, received: now }, t);
        if (!fresh) continue;
      }
      if (refund) {
        await refunds.write(refund, t);
        shop.times.push(refund.time);
      } else if (event.type === 'subscription') {
        let ref = refs.get(event.subscription_id);
        if (ref === undefined) refs.set(event.subscription_id, (ref = await subscriptionRef(db, siteId, options.source, event, t)));
        if (event.uid) await linkSubscriber(db, ref, event.uid, await linker.trafficSource(event.uid, event.time, t), t);
        subscriptionEvents.push({ ref, event });
      } else if (event.type === 'order') {
        if (!(await this.writeOrder(event, siteId, options.source, linker, t))) continue;
        shopTimes.push(event.time);
        if (event.uid) shop.orders.push({ uid: event.uid, time: event.time });
      } else if (event.type !== 'refund') {
        const row = await this.visitorRow(event, siteId, options.source, linker, t);
        visitorRows.push(row);
        shopTimes.push(event.time);
        if (event.type === 'add_to_cart') shop.carts.push({ sessionId: Number(row.session_id), uid: event.uid, time: event.time });
      }
      accepted++;
    }
    if (visitorRows.length) await insertRows(db, 'ecommerce_events', visitorRows, t);
    if (subscriptionEvents.length) await insertSubscriptionEvents(db, siteId, subscriptionEvents, t);
    for (const ref of new Set(subscriptionEvents.map((s) => s.ref))) await rebuildSubscription(db, siteId, ref, t);
    const timezone = await this.deps.zoneOf(siteId);
    if (options.aggregate !== false && subscriptionEvents.length) {
      await aggregateDays(db, siteId, daysOf(subscriptionEvents.map((s) => s.event.time), timezone), timezone, t);
    }
    shop.times.push(...shopTimes);
    const staled = shop.times.length ? await markWritten(db, this.deps.folds, siteId, timezone, shop, t) : 0;
    return { accepted, shopTimes, rejected, staled };
  }

  private async visitorRow(e: VisitorEvent, siteId: number, source: string, linker: VisitorLinker, t: Transaction): Promise<Record<string, unknown>> {
    return {
      site_id: siteId,
      type: e.type,
      source,
      uid: e.uid,
      session_id: await linker.session(e.uid, e.time, t),
      traffic_source: await linker.trafficSource(e.uid, e.time, t),
      product_id: e.product_id,
      product_name: e.product_name,
      quantity: e.quantity,
      price: e.price,
      currency: e.currency,
      url: e.url,
      time: e.time,
    };
  }

  /** False when the source already sent this order to the site. */
  private async writeOrder(e: OrderEvent, siteId: number, source: string, linker: VisitorLinker, t: Transaction): Promise<boolean> {
    const sessionId = await linker.session(e.uid, e.time, t);
    const ref = await insertIgnore(
      this.deps.db,
      'ecommerce_orders',
      {
        site_id: siteId,
        order_id: e.order_id,
        source,
        uid: e.uid,
        session_id: sessionId,
        campaign_id: await linker.campaign(sessionId, t),
        traffic_source: await linker.trafficSource(e.uid, e.time, t),
        currency: e.currency,
        total: e.total,
        time: e.time,
      },
      t,
    );
    if (!ref) return false;
    await insertRows(this.deps.db, 'ecommerce_order_items', e.items.map((item) => ({ site_id: siteId, order_ref: ref, ...item, currency: e.currency, time: e.time })), t);
    return true;
  }
}
