import type { Migration } from '../../../core';

/**
 * Refunds of stored orders, full or partial (`ecommerce_refunds`, unique per
 * sender and refund id), and the products each gave back
 * (`ecommerce_refund_items`: units and value per product). Figures subtract
 * them in the period of the refund.
 */
export const refunds: Migration = {
  name: '0003-refunds',
  async up({ db, queryInterface: qi, types: T }) {
    const index = (table: string, fields: string[], unique = false) =>
      qi.addIndex(db.table(table), fields, { name: `${db.table(table)}_${fields.join('_')}`, unique });
    const money = { type: T.decimal(20, 6), allowNull: false, defaultValue: 0 };

    await qi.createTable(db.table('ecommerce_refunds'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      refund_id: { type: T.exactString(64), allowNull: false },
      source: { type: T.string(32), allowNull: false },
      order_ref: { type: T.ref, allowNull: false },
      currency: { type: T.string(3), allowNull: false },
      amount: money,
      time: { type: T.bigint, allowNull: false },
    });
    await index('ecommerce_refunds', ['source', 'refund_id'], true);
    await index('ecommerce_refunds', ['order_ref']);
    await index('ecommerce_refunds', ['time']);

    await qi.createTable(db.table('ecommerce_refund_items'), {
      ID: { type: T.id, primaryKey: true, autoIncrement: true },
      refund_ref: { type: T.ref, allowNull: false },
      order_ref: { type: T.ref, allowNull: false },
      product_id: { type: T.bigint, allowNull: false },
      product_name: { type: T.string(255), allowNull: false },
      quantity: { type: T.uint, allowNull: false, defaultValue: 0 },
      amount: money,
      currency: { type: T.string(3), allowNull: false },
      time: { type: T.bigint, allowNull: false },
    });
    await index('ecommerce_refund_items', ['refund_ref']);
    await index('ecommerce_refund_items', ['order_ref']);
    await index('ecommerce_refund_items', ['time']);
  },
};
