import type { Shop } from '../../../test/helpers/shop';
import { at } from '../../../test/helpers/time';

/**
 * A small shop, sent through the sales ingestion API (March 2025, UTC):
 *
 * | product | currency | March units | March revenue | March adds to cart |
 * |---|---|---|---|---|
 * | Mug (1) | EUR | 3 | 30 | 2 |
 * | Hat (3) | USD | 1 | 30 | 0 |
 * | Tea (2) | EUR | 3 | 15 | 0 |
 *
 * plus 10 Tea sold in February. The Hat buyer `us-visitor` came from the US
 * (a tracked session); the other orders have no tracked visitor.
 *
 * Subscriptions: S1 (Box Monthly, 20 EUR a month) since February, renewed in
 * March; S2 (Box Monthly) started and canceled in March; S3 (Pro, 15 USD a
 * month) in trial since 25 March.
 */
export const MARCH = { date_start: at('2025-03-01T00:00:00'), date_end: at('2025-03-31T00:00:00') };
export const FEBRUARY = { date_start: at('2025-02-01T00:00:00'), date_end: at('2025-02-28T00:00:00') };

const item = (product_id: number, product_name: string, quantity: number, price: number) => ({ product_id, product_name, quantity, price });
const order = (order_id: string, currency: string, items: Array<ReturnType<typeof item>>, time: string, uid?: string) => ({
  type: 'order',
  order_id,
  currency,
  total: items.reduce((sum, i) => sum + i.quantity * i.price, 0),
  items,
  time: at(time),
  ...(uid ? { uid } : {}),
});
const cart = (uid: string, time: string) => ({ type: 'add_to_cart', uid, product_id: 1, product_name: 'Mug', quantity: 1, price: 10, currency: 'EUR', time: at(time) });
const BOX = { product_id: 100, product_name: 'Box Monthly', amount: 20, currency: 'EUR', billing_period: 'month', billing_interval: 1 };
const PRO = { product_id: 300, product_name: 'Pro', amount: 15, currency: 'USD', billing_period: 'month', billing_interval: 1 };
const sub = (id: string, plan: typeof BOX, event: string, day: string) => ({
  type: 'subscription',
  id: `${id}-${event}`,
  subscription_id: id,
  event,
  ...plan,
  time: at(`${day}T10:00:00`),
});

export const SHOP_EVENTS = [
  order('O0', 'EUR', [item(2, 'Tea', 10, 5)], '2025-02-10T10:00:00'),
  order('O1', 'EUR', [item(1, 'Mug', 2, 10)], '2025-03-10T10:00:00'),
  order('O2', 'EUR', [item(1, 'Mug', 1, 10), item(2, 'Tea', 3, 5)], '2025-03-12T10:00:00'),
  order('O3', 'USD', [item(3, 'Hat', 1, 30)], '2025-03-15T10:00:00', 'us-visitor'),
  cart('cart-a', '2025-03-09T10:00:00'),
  cart('cart-b', '2025-03-11T10:00:00'),
  sub('S1', BOX, 'created', '2025-02-15'),
  sub('S1', BOX, 'renewed', '2025-03-15'),
  sub('S2', BOX, 'created', '2025-03-05'),
  sub('S2', BOX, 'canceled', '2025-03-20'),
  sub('S3', PRO, 'trial_started', '2025-03-25'),
];

/** The shop: the US visit, then every event. */
export const SHOP: Shop = { visits: [{ uid: 'us-visitor', country: 'US', time: at('2025-03-15T09:50:00') }], events: SHOP_EVENTS };
