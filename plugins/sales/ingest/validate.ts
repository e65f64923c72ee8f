import { BILLING_PERIODS, SUBSCRIPTION_EVENTS, type BillingPeriod, type SubscriptionEventName } from '../contract';
import { REQUIRED, object, refuse, within } from '../../../core';
import {
  FieldError,
  type Fields,
  asFieldError,
  countryCode,
  currency,
  given,
  identifier,
  money,
  oneOf,
  pageUrl,
  text,
  time,
  wholeNumber,
} from './fields';

export const EVENT_TYPES = ['product_view', 'add_to_cart', 'checkout_visit', 'order', 'refund', 'subscription'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type VisitorEventType = 'product_view' | 'add_to_cart' | 'checkout_visit';

export const MAX_ORDER_ITEMS = 500;
const MAX_QUANTITY = 1_000_000;
const MAX_PRODUCT_ID = Number.MAX_SAFE_INTEGER;

interface Base {
  /** The sender's event id (idempotency key), or null. */
  id: string | null;
  time: number;
}

export interface VisitorEvent extends Base {
  type: VisitorEventType;
  uid: string;
  product_id: number;
  product_name: string;
  quantity: number;
  price: number;
  currency: string;
  url: string;
}

export interface OrderItem {
  product_id: number;
  product_name: string;
  quantity: number;
  price: number;
}

export interface OrderEvent extends Base {
  type: 'order';
  order_id: string;
  uid: string;
  currency: string;
  total: number;
  items: OrderItem[];
}

export interface SubscriptionEvent extends Base {
  type: 'subscription';
  subscription_id: string;
  /** The subscriber's tracker uid, '' when the store did not send it. */
  uid: string;
  event: SubscriptionEventName;
  product_id: number;
  product_name: string;
  amount: number;
  currency: string;
  billing_period: BillingPeriod;
  billing_interval: number;
  gateway: string;
  country_code: string;
}

export interface RefundItem {
  product_id: number;
  /** Units given back (0: value only). */
  quantity: number;
  /** Value given back; null: the units at the order's unit price. */
  amount: number | null;
}

export interface RefundEvent extends Base {
  type: 'refund';
  refund_id: string;
  order_id: string;
  /** Null: the items' values when items are named, else the rest of the order (a full refund). */
  amount: number | null;
  /** Must be the order's currency when given. */
  currency: string | null;
  /** The products given back; null when the refund does not say. */
  items: RefundItem[] | null;
}

export type ValidEvent = VisitorEvent | OrderEvent | RefundEvent | SubscriptionEvent;

const productId = (f: Fields) => wholeNumber(f, 'product_id', 1, MAX_PRODUCT_ID);
const uid = (f: Fields, required: boolean) => text(f, 'uid', 64, required);

function item(raw: unknown, index: number): OrderItem {
  const f = object(raw, `items[${index}]`);
  return within(`items[${index}].`, () => ({
    product_id: productId(f),
    product_name: text(f, 'product_name', 255),
    quantity: wholeNumber(f, 'quantity', 1, MAX_QUANTITY),
    price: money(f, 'price'),
  }));
}

function refundItem(raw: unknown, index: number): RefundItem {
  const f = object(raw, `items[${index}]`);
  return within(`items[${index}].`, () => ({
    product_id: productId(f),
    quantity: given(f, 'quantity') ? wholeNumber(f, 'quantity', 0, MAX_QUANTITY) : 0,
    amount: given(f, 'amount') ? money(f, 'amount') : null,
  }));
}

/** The `items` list: 1 to MAX_ORDER_ITEMS entries. */
function itemList(f: Fields): unknown[] {
  if (f.items === undefined || f.items === null) throw refuse('items', REQUIRED);
  if (!Array.isArray(f.items) || f.items.length === 0 || f.items.length > MAX_ORDER_ITEMS) throw refuse('items', `must be a list of 1 to ${MAX_ORDER_ITEMS} products`);
  return f.items;
}

function refundItems(f: Fields): RefundItem[] | null {
  if (!given(f, 'items')) return null;
  const list = itemList(f).map(refundItem);
  if (list.some((i) => i.quantity === 0 && i.amount === null)) throw refuse('items', 'need a quantity or an amount each');
  return list;
}

/**
 * Checks one event of the ingestion API and returns it normalised; throws a
 * FieldError naming the first field that is missing or wrong.
 */
export function validateEvent(raw: unknown, now: number): ValidEvent {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new FieldError('svc_invalid_event', 'The event must be an object.');
  const f = raw as Fields;
  if (typeof f.type !== 'string' || !(EVENT_TYPES as readonly string[]).includes(f.type)) {
    throw new FieldError('svc_invalid_event_type', `type must be one of ${EVENT_TYPES.join(', ')}.`);
  }
  try {
    return readEvent(f, f.type as EventType, now);
  } catch (err) {
    throw asFieldError(err);
  }
}

function readEvent(f: Fields, type: EventType, now: number): ValidEvent {
  const base: Base = { id: identifier(f, 'id', 150, false), time: time(f, now) };
  switch (type) {
    case 'product_view':
      return { ...base, type, uid: uid(f, true), product_id: productId(f), product_name: text(f, 'product_name', 255, false), quantity: 0, price: 0, currency: '', url: pageUrl(f) };
    case 'add_to_cart':
      return {
        ...base,
        type,
        uid: uid(f, true),
        product_id: productId(f),
        product_name: text(f, 'product_name', 255),
        quantity: wholeNumber(f, 'quantity', 1, MAX_QUANTITY),
        price: money(f, 'price'),
        currency: currency(f),
        url: '',
      };
    case 'checkout_visit':
      return { ...base, type, uid: uid(f, true), product_id: 0, product_name: '', quantity: 0, price: 0, currency: '', url: pageUrl(f) };
    case 'order':
      return {
        ...base,
        type,
        order_id: identifier(f, 'order_id', 64)!,
        uid: uid(f, false),
        currency: currency(f),
        total: money(f, 'total'),
        items: itemList(f).map(item),
      };
    case 'refund':
      return {
        ...base,
        type,
        refund_id: identifier(f, 'refund_id', 64)!,
        order_id: identifier(f, 'order_id', 64)!,
        amount: given(f, 'amount') ? money(f, 'amount') : null,
        currency: given(f, 'currency') ? currency(f) : null,
        items: refundItems(f),
      };
    case 'subscription':
      return {
        ...base,
        type,
        subscription_id: identifier(f, 'subscription_id', 64)!,
        uid: uid(f, false),
        event: oneOf(f, 'event', SUBSCRIPTION_EVENTS),
        product_id: productId(f),
        product_name: text(f, 'product_name', 255),
        amount: money(f, 'amount'),
        currency: currency(f),
        billing_period: oneOf(f, 'billing_period', BILLING_PERIODS),
        billing_interval: wholeNumber(f, 'billing_interval', 1, 365),
        gateway: text(f, 'gateway', 64, false),
        country_code: countryCode(f, 'country_code'),
      };
  }
}
