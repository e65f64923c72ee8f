import { type MigratedDatabase, databaseBefore } from '../../../test/helpers/migrated-from-main';
import { salesMigrations } from '../migrations';

const TABLES = [
  'ecommerce_events',
  'ecommerce_orders',
  'ecommerce_order_items',
  'ecommerce_refunds',
  'ecommerce_refund_items',
  'subscriptions',
  'subscription_events',
  'subscription_periods',
  'subscription_days',
];

describe('ecommerce data of an install made before sites', () => {
  let m: MigratedDatabase;
  beforeAll(async () => {
    m = await databaseBefore('sales', salesMigrations, '0004-sites');
  });
  afterAll(() => m?.close());

  it('keeps every row, each on the default site, and the same order id may come again for another site', async () => {
    const { db } = m;
    const plant = [
      `INSERT INTO mg_svc_ecommerce_events (type, source, product_id, traffic_source, time) VALUES ('view', 'rest', 4, '', 10)`,
      `INSERT INTO mg_svc_ecommerce_orders (order_id, source, currency, total, traffic_source, time) VALUES ('A-1', 'rest', 'EUR', 12.5, '', 10)`,
      `INSERT INTO mg_svc_ecommerce_order_items (order_ref, product_id, product_name, quantity, price, currency, time) VALUES (1, 4, 'Mug', 1, 12.5, 'EUR', 10)`,
      `INSERT INTO mg_svc_ecommerce_refunds (refund_id, source, order_ref, currency, amount, time) VALUES ('R-1', 'rest', 1, 'EUR', 2.5, 11)`,
      `INSERT INTO mg_svc_ecommerce_refund_items (refund_ref, order_ref, product_id, product_name, quantity, amount, currency, time) VALUES (1, 1, 4, 'Mug', 0, 2.5, 'EUR', 11)`,
      `INSERT INTO mg_svc_subscriptions (source, subscription_id, product_id, product_name, amount, currency, billing_period, billing_interval, mrr, status, traffic_source, started_at) VALUES ('rest', 'S-1', 5, 'Plan', 9, 'EUR', 'month', 1, 9, 'active', '', 10)`,
      `INSERT INTO mg_svc_subscription_events (subscription_ref, event, product_id, product_name, amount, currency, billing_period, billing_interval, time) VALUES (1, 'new', 5, 'Plan', 9, 'EUR', 'month', 1, 10)`,
      `INSERT INTO mg_svc_subscription_periods (subscription_ref, state, period_start, mrr, currency, product_id) VALUES (1, 'active', 10, 9, 'EUR', 5)`,
      `INSERT INTO mg_svc_subscription_days (day, product_id, currency, gateway, country_code, events, new_count, new_revenue) VALUES (0, 5, 'EUR', '', '', 1, 1, 9)`,
    ];
    for (const sql of plant) await db.execute(sql);
    expect(await m.upgrade()).toEqual(['sales/0004-sites', 'sales/0005-rollups', 'sales/0006-subscription-months']);
    for (const table of TABLES) {
      expect({ table, rows: await db.select(`SELECT site_id FROM mg_svc_${table}`) }).toEqual({ table, rows: [{ site_id: 1 }] });
    }
    expect(await db.select('SELECT day, product_id, events, new_count FROM mg_svc_subscription_days')).toEqual([{ day: 0, product_id: 5, events: 1, new_count: 1 }]);
    await db.execute(`INSERT INTO mg_svc_ecommerce_orders (site_id, order_id, source, currency, total, traffic_source, time) VALUES (2, 'A-1', 'rest', 'EUR', 3, '', 10)`);
    await expect(db.execute(`INSERT INTO mg_svc_ecommerce_orders (site_id, order_id, source, currency, total, traffic_source, time) VALUES (2, 'A-1', 'rest', 'EUR', 3, '', 10)`)).rejects.toThrow();
    await db.execute(`INSERT INTO mg_svc_subscription_days (site_id, day, product_id, currency, gateway, country_code) VALUES (2, 0, 5, 'EUR', '', '')`);
  });
});
