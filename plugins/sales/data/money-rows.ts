import type { Database } from '../../../core';
import { tbl } from '../db';

/**
 * Money in a window comes from two kinds of rows: what was sold (at the
 * order's time) and what was refunded (minus, at the refund's time), so a
 * refund lowers the figures of the period it happened in.
 */
export type MoneyKind = 'sold' | 'refunded';
export const MONEY_KINDS: readonly MoneyKind[] = ['sold', 'refunded'];

/** Order-level rows, each with its order aliased `o`. */
export interface OrderRows {
  /** FROM clause. */
  from(db: Database): string;
  /** Signed money of a row. */
  amount: string;
  /** When the row counts. */
  time: string;
  /** 1 for a placed order, 0 for a refund: SUM of it counts orders. */
  order: string;
}

export const ORDER_ROWS: Readonly<Record<MoneyKind, OrderRows>> = {
  sold: { from: (db) => `${tbl(db, 'ecommerce_orders')} o`, amount: 'o.total', time: 'o.time', order: '1' },
  refunded: {
    from: (db) => `${tbl(db, 'ecommerce_refunds')} r JOIN ${tbl(db, 'ecommerce_orders')} o ON o.ID = r.order_ref`,
    amount: '-r.amount',
    time: 'r.time',
    order: '0',
  },
};

/** Product-level rows aliased `i` (each has `order_ref`, `product_id`, `product_name`, `currency`, `time`). */
export interface ItemRows {
  table: string;
  /** Signed units. */
  quantity: string;
  /** Signed value. */
  value: string;
}

export const ITEM_ROWS: Readonly<Record<MoneyKind, ItemRows>> = {
  sold: { table: 'ecommerce_order_items', quantity: 'i.quantity', value: 'i.quantity * i.price' },
  refunded: { table: 'ecommerce_refund_items', quantity: '-i.quantity', value: '-i.amount' },
};
