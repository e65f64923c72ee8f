import type { Transaction } from 'sequelize';
import { type Database, LOCK_ROWS } from '../../../core';
import { insertRows, num, round, tbl } from '../db';
import { FieldError } from './fields';
import type { RefundEvent } from './validate';

/** Money compares to a hundredth of a minor unit, so 19.99 left and 19.99 refunded match. */
const CENT = 0.005;

interface Line {
  product_id: number;
  product_name: string;
  left: number;
  value: number;
}

interface StoredOrder {
  ref: number;
  currency: string;
  time: number;
  /** Order total not refunded yet. */
  left: number;
  lines: Map<number, Line>;
}

/** A checked refund, ready to be written. */
export interface PlannedRefund {
  siteId: number;
  source: string;
  refundId: string;
  order: StoredOrder;
  amount: number;
  time: number;
  items: Array<{ product_id: number; product_name: string; quantity: number; amount: number }>;
}

const invalid = (message: string) => new FieldError('svc_invalid_field', message);
const money = (n: number, currency: string) => `${round(n, 2)} ${currency}`;

/**
 * Refunds of stored orders (README "Refunds"): each names its order; what
 * it gives back is checked against what the order has left, per order and
 * per product, so nothing is refunded twice.
 */
export class RefundWriter {
  constructor(private readonly db: Database) {}

  /**
   * Checks the refund against its order: null when the sender sent it
   * already; throws a FieldError naming what does not fit. Its order is
   * locked first (in a `writes` transaction), so concurrent refunds of one
   * order take turns and each sees what the ones before it took.
   */
  async plan(e: RefundEvent, siteId: number, source: string, t: Transaction): Promise<PlannedRefund | null> {
    const ref = await this.lockOrder(siteId, source, e.order_id, t);
    if (await this.exists(siteId, source, e.refund_id, t)) return null;
    const order = ref === null ? null : await this.order(ref, t);
    if (!order) throw new FieldError('svc_unknown_order', `order_id ${e.order_id} is not an order this sender has sent.`);
    if (e.currency !== null && e.currency !== order.currency) throw invalid(`currency must be the order's currency, ${order.currency}.`);
    if (e.time < order.time) throw invalid('time must not be before the order was placed.');
    const items = e.items === null ? null : this.namedItems(e, order);
    const amount = e.amount ?? (items ? items.reduce((n, i) => n + i.amount, 0) : order.left);
    if (order.left <= CENT && amount <= CENT) throw invalid(`order ${e.order_id} has been refunded in full already.`);
    if (amount > order.left + CENT) throw invalid(`amount is more than the ${money(order.left, order.currency)} left to refund of order ${e.order_id}.`);
    return { siteId, source, refundId: e.refund_id, order, amount, time: e.time, items: items ?? this.impliedItems(order, amount) };
  }

  async write(p: PlannedRefund, t: Transaction): Promise<void> {
    const { id } = await this.db.insert(
      `INSERT INTO ${tbl(this.db, 'ecommerce_refunds')} (site_id, refund_id, source, order_ref, currency, amount, time) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [p.siteId, p.refundId, p.source, p.order.ref, p.order.currency, p.amount, p.time],
      t,
    );
    const items = p.items.filter((i) => i.quantity > 0 || i.amount > 0);
    if (items.length) {
      await insertRows(this.db, 'ecommerce_refund_items', items.map((i) => ({ site_id: p.siteId, refund_ref: id, order_ref: p.order.ref, ...i, currency: p.order.currency, time: p.time })), t);
    }
  }

  /** Deletes a stored refund with its products; its id stays received, so a late copy of it is a duplicate. Answers the time it counted at, or null without one. */
  async withdraw(siteId: number, source: string, refundId: string, t: Transaction): Promise<number | null> {
    const [r] = await this.db.select(`SELECT ID, time FROM ${tbl(this.db, 'ecommerce_refunds')} WHERE site_id = ? AND source = ? AND refund_id = ?`, [siteId, source, refundId], t);
    if (!r) return null;
    await this.db.execute(`DELETE FROM ${tbl(this.db, 'ecommerce_refund_items')} WHERE refund_ref = ?`, [num(r.ID)], t);
    await this.db.execute(`DELETE FROM ${tbl(this.db, 'ecommerce_refunds')} WHERE ID = ?`, [num(r.ID)], t);
    return num(r.time);
  }

  /** The products a refund names, each within what its line has left. */
  private namedItems(e: RefundEvent, order: StoredOrder): PlannedRefund['items'] {
    const taken = new Map<number, { quantity: number; amount: number }>();
    return e.items!.map((item, i) => {
      const line = order.lines.get(item.product_id);
      if (!line) throw invalid(`items[${i}].product_id ${item.product_id} is not in order ${e.order_id}.`);
      const before = taken.get(item.product_id) ?? { quantity: 0, amount: 0 };
      const unit = line.left > 0 ? line.value / line.left : 0;
      const amount = item.amount ?? round(item.quantity * unit, 6);
      const after = { quantity: before.quantity + item.quantity, amount: before.amount + amount };
      if (after.quantity > line.left) throw invalid(`items[${i}].quantity is more than the ${line.left} unit(s) of product ${item.product_id} left to refund.`);
      if (after.amount > line.value + CENT) throw invalid(`items[${i}].amount is more than the ${money(line.value, order.currency)} of product ${item.product_id} left to refund.`);
      taken.set(item.product_id, after);
      return { product_id: item.product_id, product_name: line.product_name, quantity: item.quantity, amount };
    });
  }

  /**
   * Products of a refund that names none: everything left when it refunds
   * the rest of the order; otherwise its amount spread over the lines by
   * their value, without units.
   */
  private impliedItems(order: StoredOrder, amount: number): PlannedRefund['items'] {
    const lines = [...order.lines.values()].filter((l) => l.value > 0 || l.left > 0);
    if (amount >= order.left - CENT) return lines.map((l) => ({ product_id: l.product_id, product_name: l.product_name, quantity: l.left, amount: l.value }));
    const value = lines.reduce((n, l) => n + l.value, 0);
    if (value <= 0) return [];
    return lines.map((l) => ({ product_id: l.product_id, product_name: l.product_name, quantity: 0, amount: round(Math.min(l.value, (amount * l.value) / value), 6) }));
  }

  /** The order's ID, its row locked until the transaction ends; null when the sender sent no such order. */
  private async lockOrder(siteId: number, source: string, orderId: string, t: Transaction): Promise<number | null> {
    const [o] = await this.db.select(`SELECT ID FROM ${tbl(this.db, 'ecommerce_orders')} WHERE site_id = ? AND source = ? AND order_id = ?${LOCK_ROWS[this.db.dialect]}`, [
      siteId,
      source,
      orderId,
    ], t);
    return o ? num(o.ID) : null;
  }

  /** Whether the sender already sent this refund. */
  private async exists(siteId: number, source: string, refundId: string, t: Transaction): Promise<boolean> {
    const rows = await this.db.select(`SELECT 1 AS x FROM ${tbl(this.db, 'ecommerce_refunds')} WHERE site_id = ? AND source = ? AND refund_id = ?`, [siteId, source, refundId], t);
    return rows.length > 0;
  }

  /** The order with what is left of it: its total and, per product, units and value not refunded yet. */
  private async order(ref: number, t: Transaction): Promise<StoredOrder | null> {
    const [o] = await this.db.select<Record<string, unknown>>(
      `SELECT o.currency, o.total, o.time, (SELECT COALESCE(SUM(r.amount), 0) FROM ${tbl(this.db, 'ecommerce_refunds')} r WHERE r.order_ref = o.ID) AS refunded
         FROM ${tbl(this.db, 'ecommerce_orders')} o WHERE o.ID = ?`,
      [ref],
      t,
    );
    if (!o) return null;
    const lines = new Map<number, Line>();
    for (const r of await this.db.select<Record<string, unknown>>(
      `SELECT product_id, MAX(product_name) AS name, SUM(quantity) AS quantity, SUM(quantity * price) AS value FROM ${tbl(this.db, 'ecommerce_order_items')} WHERE order_ref = ? GROUP BY product_id`,
      [ref],
      t,
    )) {
      lines.set(num(r.product_id), { product_id: num(r.product_id), product_name: String(r.name), left: num(r.quantity), value: num(r.value) });
    }
    for (const r of await this.db.select<Record<string, unknown>>(
      `SELECT product_id, SUM(quantity) AS quantity, SUM(amount) AS amount FROM ${tbl(this.db, 'ecommerce_refund_items')} WHERE order_ref = ? GROUP BY product_id`,
      [ref],
      t,
    )) {
      const line = lines.get(num(r.product_id));
      if (!line) continue;
      line.left -= num(r.quantity);
      line.value = Math.max(0, line.value - num(r.amount));
    }
    return { ref, currency: String(o.currency), time: num(o.time), left: Math.max(0, num(o.total) - num(o.refunded)), lines };
  }
}
