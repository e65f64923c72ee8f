/** A visit `svc demo` generated (tracking's `svc_demo_generated` payload). */
export interface DemoVisit {
  uid: string;
  time: number;
  url: string;
  session: number;
}

interface Product {
  id: number;
  name: string;
  slug: string;
  eur: number;
  plan?: { period: 'month' | 'year'; amount: number };
}

const CATALOG: readonly Product[] = [
  { id: 101, name: 'Espresso cup', slug: 'espresso-cup', eur: 12 },
  { id: 102, name: 'Tea sampler', slug: 'tea-sampler', eur: 18 },
  { id: 103, name: 'Hand grinder', slug: 'hand-grinder', eur: 49 },
  { id: 104, name: 'Single origin beans', slug: 'single-origin-beans', eur: 15 },
  { id: 201, name: 'Coffee club', slug: 'coffee-club', eur: 20, plan: { period: 'month', amount: 20 } },
  { id: 202, name: 'Coffee club yearly', slug: 'coffee-club-yearly', eur: 200, plan: { period: 'year', amount: 200 } },
];

const DAY = 86_400;
const PERIOD_SECONDS = { month: 30 * DAY, year: 365 * DAY };

/** A repeatable number in [0, 1) for `key`, so the same visit always shops the same way. */
function chance(key: string): number {
  let hash = 0x811c9dc5;
  for (const ch of key) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return hash / 0x1_0000_0000;
}

const priceIn = (eur: number, currency: string) => (currency === 'USD' ? Math.round(eur * 110) / 100 : eur);

/**
 * Shop activity for demo visits, as ingestion events: per session a product
 * view (45 %), then add to cart (45 %), checkout (65 %) and order (70 %), in
 * EUR or (15 %) USD; club orders also start a monthly or yearly subscription
 * (some with a trial, some canceled later) with its renewals up to `now`.
 */
export function demoShop(visits: readonly DemoVisit[], origin: string, now: number): Array<Record<string, unknown>> {
  const sessions = new Map<number, DemoVisit>();
  for (const v of visits) if (!sessions.has(v.session) || sessions.get(v.session)!.time > v.time) sessions.set(v.session, v);
  const events: Array<Record<string, unknown>> = [];
  for (const v of sessions.values()) {
    const key = `${v.uid}:${v.session}`;
    if (chance(`${key}:view`) >= 0.45) continue;
    const product = CATALOG[Math.floor(chance(`${key}:product`) * CATALOG.length)]!;
    const currency = chance(`${key}:currency`) < 0.15 ? 'USD' : 'EUR';
    const price = priceIn(product.eur, currency);
    events.push({ type: 'product_view', id: `demo-view-${v.session}`, uid: v.uid, product_id: product.id, product_name: product.name, url: `${origin}/product/${product.slug}`, time: v.time + 20 });
    if (chance(`${key}:cart`) >= 0.45) continue;
    const quantity = product.plan ? 1 : 1 + Math.floor(chance(`${key}:quantity`) * 2);
    events.push({ type: 'add_to_cart', id: `demo-cart-${v.session}`, uid: v.uid, product_id: product.id, product_name: product.name, quantity, price, currency, time: v.time + 40 });
    if (chance(`${key}:checkout`) >= 0.65) continue;
    events.push({ type: 'checkout_visit', id: `demo-checkout-${v.session}`, uid: v.uid, url: `${origin}/checkout`, time: v.time + 60 });
    if (chance(`${key}:order`) >= 0.7) continue;
    const paidAt = v.time + 90;
    events.push({
      type: 'order',
      id: `demo-order-${v.session}`,
      order_id: `demo-${v.session}`,
      uid: v.uid,
      currency,
      total: Math.round((price * quantity + (product.plan ? 0 : priceIn(4.9, currency))) * 100) / 100,
      items: [{ product_id: product.id, product_name: product.name, quantity, price }],
      time: paidAt,
    });
    if (product.plan) events.push(...demoSubscription(v, product, currency, paidAt, now, key));
  }
  return events;
}

function demoSubscription(v: DemoVisit, product: Product, currency: string, start: number, now: number, key: string): Array<Record<string, unknown>> {
  const plan = product.plan!;
  const base = {
    type: 'subscription',
    subscription_id: `demo-${v.session}`,
    product_id: product.id,
    product_name: product.name,
    amount: priceIn(plan.amount, currency),
    currency,
    billing_period: plan.period,
    billing_interval: 1,
    gateway: chance(`${key}:gateway`) < 0.7 ? 'stripe' : 'paypal',
    country_code: ['DE', 'FR', 'NL', 'US', 'AT'][Math.floor(chance(`${key}:country`) * 5)],
  };
  const out: Array<Record<string, unknown>> = [];
  const event = (name: string, time: number) => out.push({ ...base, id: `demo-sub-${v.session}-${name}-${time}`, event: name, time });
  let paid = start;
  if (chance(`${key}:trial`) < 0.3) {
    event('trial_started', start);
    paid = start + 14 * DAY;
    if (paid > now) return out;
    event('converted', paid);
  } else {
    event('created', start);
  }
  const cancelAt = chance(`${key}:cancel`) < 0.25 ? paid + Math.floor(chance(`${key}:cancel-at`) * 20 * DAY) : null;
  for (let t = paid + PERIOD_SECONDS[plan.period]; t <= now && (cancelAt === null || t < cancelAt); t += PERIOD_SECONDS[plan.period]) event('renewed', t);
  if (cancelAt !== null && cancelAt <= now) event('canceled', cancelAt);
  return out;
}
