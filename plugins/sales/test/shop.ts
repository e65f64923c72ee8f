import type { Shop } from '../../../test/helpers/shop';
import { at } from '../../../test/helpers/time';

/**
 * A hand-built shop (figures worked out in shop-data.int.test.ts):
 * March 2025 with its previous period (29 Jan - 28 Feb), orders in EUR and
 * USD, abandoned carts, a funnel, and subscriptions with monthly and yearly
 * plans, renewals, trials, cancellations and a reactivation.
 */
export const MUG = { product_id: 1, product_name: 'Mug' };
export const TEA = { product_id: 2, product_name: 'Tea' };
export const HAT = { product_id: 3, product_name: 'Hat' };
export const page = (slug: string) => `https://shop.example/product/${slug}`;

const view = (uid: string, p: { product_id: number }, slug: string, time: string) => ({ type: 'product_view', uid, product_id: p.product_id, url: page(slug), time: at(time) });
const cart = (uid: string, p: typeof MUG, quantity: number, price: number, currency: string, time: string) => ({
  type: 'add_to_cart',
  uid,
  ...p,
  quantity,
  price,
  currency,
  time: at(time),
});
const checkout = (uid: string, time: string) => ({ type: 'checkout_visit', uid, url: 'https://shop.example/checkout', time: at(time) });
const order = (order_id: string, uid: string, currency: string, total: number, items: Array<typeof MUG & { quantity: number; price: number }>, time: string) => ({
  type: 'order',
  order_id,
  uid,
  currency,
  total,
  items,
  time: at(time),
});

const BOX = { product_id: 100, product_name: 'Box Monthly', amount: 20, currency: 'EUR', billing_period: 'month', billing_interval: 1 };
const YEARLY = { product_id: 200, product_name: 'Box Yearly', amount: 120, currency: 'EUR', billing_period: 'year', billing_interval: 1 };
const PRO = { product_id: 300, product_name: 'Pro', amount: 15, currency: 'USD', billing_period: 'month', billing_interval: 1 };
const sub = (id: string, plan: typeof BOX, gateway: string, country: string, event: string, day: string) => ({
  type: 'subscription',
  id: `${id}-${event}-${day}`,
  subscription_id: id,
  event,
  ...plan,
  gateway,
  country_code: country,
  time: at(`${day}T10:00:00`),
});

export const SUBSCRIPTION_EVENTS = [
  sub('S1', BOX, 'stripe', 'DE', 'created', '2025-01-15'),
  sub('S1', BOX, 'stripe', 'DE', 'renewed', '2025-02-15'),
  sub('S1', BOX, 'stripe', 'DE', 'renewed', '2025-03-15'),
  sub('S2', BOX, 'paypal', 'FR', 'created', '2025-02-10'),
  sub('S2', BOX, 'paypal', 'FR', 'canceled', '2025-03-05'),
  sub('S3', BOX, 'stripe', 'DE', 'trial_started', '2025-02-25'),
  sub('S3', BOX, 'stripe', 'DE', 'converted', '2025-03-04'),
  sub('S4', YEARLY, 'stripe', 'DE', 'created', '2025-01-20'),
  sub('S5', YEARLY, 'stripe', 'AT', 'created', '2025-03-10'),
  sub('S5', YEARLY, 'stripe', 'AT', 'canceled', '2025-03-20'),
  sub('S6', PRO, 'stripe', 'US', 'created', '2025-02-01'),
  sub('S6', PRO, 'stripe', 'US', 'renewed', '2025-03-01'),
  sub('S7', BOX, 'paypal', 'DE', 'trial_started', '2025-03-25'),
  sub('S8', BOX, 'stripe', 'DE', 'reactivated', '2025-03-08'),
  sub('S8', BOX, 'stripe', 'DE', 'created', '2025-01-05'),
  sub('S8', BOX, 'stripe', 'DE', 'renewed', '2025-02-05'),
  sub('S8', BOX, 'stripe', 'DE', 'canceled', '2025-02-20'),
];

/** The visits (written to tracking's tables) and the events the shop sends through the ingestion API. */
export const SHOP: Shop = {
  visits: [
    { uid: 'u1', time: at('2025-03-03T09:00:00'), country: 'DE', device: 'Desktop', parameters: 'utm_campaign=spring' },
    { uid: 'u2', time: at('2025-03-05T09:00:00'), country: 'DE', device: 'Mobile' },
    { uid: 'u3', time: at('2025-03-10T09:00:00'), country: 'US', device: 'Desktop' },
    { uid: 'u4', time: at('2025-03-12T09:00:00'), country: 'US', device: 'Mobile', parameters: 'utm_campaign=spring' },
    { uid: 'u5', time: at('2025-03-20T09:00:00'), country: 'FR', device: 'Tablet' },
    { uid: 'u6', time: at('2025-03-28T09:00:00'), country: 'DE', device: 'Desktop' },
    { uid: 'u7', time: at('2025-02-10T09:00:00'), country: 'DE', device: 'Desktop', parameters: 'utm_campaign=spring' },
    { uid: 'u8', time: at('2025-02-15T09:00:00'), country: 'US', device: 'Mobile' },
  ],
  events: [
    view('u1', MUG, 'mug', '2025-03-03T09:01:00'),
    cart('u1', MUG, 2, 10, 'EUR', '2025-03-03T09:02:00'),
    checkout('u1', '2025-03-03T09:03:00'),
    order('O1', 'u1', 'EUR', 25, [{ ...MUG, quantity: 2, price: 10 }], '2025-03-03T10:00:00'),
    view('u2', MUG, 'mug/', '2025-03-05T09:01:00'),
    view('u2', TEA, 'tea', '2025-03-05T09:02:00'),
    cart('u2', TEA, 1, 8, 'EUR', '2025-03-05T09:03:00'),
    view('u3', HAT, 'hat', '2025-03-10T09:01:00'),
    cart('u3', HAT, 1, 30, 'USD', '2025-03-10T09:02:00'),
    checkout('u3', '2025-03-10T09:03:00'),
    order('O2', 'u3', 'USD', 30, [{ ...HAT, quantity: 1, price: 30 }], '2025-03-10T10:00:00'),
    cart('u4', MUG, 1, 12, 'USD', '2025-03-12T09:02:00'),
    checkout('u4', '2025-03-12T09:03:00'),
    view('u5', MUG, 'mug', '2025-03-20T09:01:00'),
    cart('u5', MUG, 3, 10, 'EUR', '2025-03-20T09:02:00'),
    checkout('u5', '2025-03-20T09:03:00'),
    order('O3', 'u5', 'EUR', 30, [{ ...MUG, quantity: 3, price: 10 }], '2025-03-20T10:00:00'),
    order('O4', '', 'EUR', 8, [{ ...TEA, quantity: 1, price: 8 }], '2025-03-25T10:00:00'),
    cart('u7', MUG, 1, 10, 'EUR', '2025-02-10T09:02:00'),
    order('O5', 'u7', 'EUR', 10, [{ ...MUG, quantity: 1, price: 10 }], '2025-02-10T10:00:00'),
    ...SUBSCRIPTION_EVENTS,
  ],
};
