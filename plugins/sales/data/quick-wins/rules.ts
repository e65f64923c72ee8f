import { percent, roundMoney } from '../money';
import type { ShopFacts } from './facts';

export interface QuickWin {
  type: string;
  key: string;
  title: string;
  message: string;
  recommendation: string;
  url: string;
}

type Rule = (f: ShopFacts) => QuickWin | null;

const DAY = 86_400;
const regions = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string) => regions.of(code) ?? code;
const money = (f: ShopFacts, value: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: f.window.currency }).format(roundMoney(value, f.window.currency));
const win = (f: ShopFacts, w: Omit<QuickWin, 'url'>, section: string): QuickWin => ({ ...w, url: f.link(section) });

/** 1. At least 5 carts and 60% or more of them abandoned. */
const abandonedCarts: Rule = (f) => {
  const abandoned = f.carts.carts - f.carts.converted;
  const rate = percent(abandoned, f.carts.carts);
  if (f.carts.carts < 5 || rate < 60) return null;
  return win(f, {
    type: 'abandoned_cart',
    key: 'abandoned_cart',
    title: 'Many carts are abandoned',
    message: `${abandoned} of ${f.carts.carts} carts (${rate}%) ended without an order.`,
    recommendation: 'Send cart reminder e-mails and show shipping costs before checkout.',
  }, 'sales-cards');
};

/** 2. One product brings 30% or more of the revenue (at least 3 units sold). */
const topProduct: Rule = (f) => {
  const top = f.products[0];
  if (!top || f.revenue <= 0 || top.quantity < 3) return null;
  const share = percent(top.revenue, f.revenue);
  if (share < 30) return null;
  return win(f, {
    type: 'top_product',
    key: `top_product_${top.product_id}`,
    title: `${top.product_name} drives your sales`,
    message: `${top.product_name} brought ${money(f, top.revenue)}, ${share}% of the revenue.`,
    recommendation: 'Feature it on the home page and offer it in bundles with related products.',
  }, 'top-performers');
};

/** 3. At least 5 checkout visits and fewer than half of them end in an order. */
const checkoutDropOff: Rule = (f) => {
  const { checkouts, orders } = f.funnel;
  if (checkouts < 5 || orders * 2 >= checkouts) return null;
  return win(f, {
    type: 'checkout_drop_off',
    key: 'checkout_drop_off',
    title: 'Buyers leave at checkout',
    message: `Only ${orders} of ${checkouts} checkout visits (${percent(orders, checkouts)}%) became an order.`,
    recommendation: 'Shorten the checkout form, allow guest checkout and add payment methods.',
  }, 'funnel');
};

/** 4. A country with at least 20 visitors converting at less than half the shop's rate (the largest such country). */
const weakCountry: Rule = (f) => {
  const visitors = f.countries.reduce((n, c) => n + c.visitors, 0);
  const buyers = f.countries.reduce((n, c) => n + c.buyers, 0);
  if (visitors === 0 || buyers === 0) return null;
  const average = buyers / visitors;
  const weak = f.countries
    .filter((c) => c.visitors >= 20 && c.buyers / c.visitors < average / 2)
    .sort((a, b) => b.visitors - a.visitors || a.country.localeCompare(b.country))[0];
  if (!weak) return null;
  return win(f, {
    type: 'low_converting_country',
    key: `low_converting_country_${weak.country.toLowerCase()}`,
    title: `Visitors from ${countryName(weak.country)} rarely buy`,
    message: `${countryName(weak.country)} converts ${percent(weak.buyers, weak.visitors)}% of ${weak.visitors} visitors; the shop average is ${percent(buyers, visitors)}%.`,
    recommendation: 'Check prices, shipping options, language and payment methods for that country.',
  }, 'top-performers');
};

/** 5. A campaign with revenue whose last order is more than 7 days old (the largest such campaign). */
const campaignWithoutFollowUp: Rule = (f) => {
  const stale = f.campaigns.filter((c) => c.revenue > 0 && f.until - c.last > 7 * DAY)[0];
  if (!stale) return null;
  return win(f, {
    type: 'campaign_no_follow_up',
    key: `campaign_no_follow_up_${stale.id}`,
    title: `Follow up on “${stale.key}”`,
    message: `The campaign ${stale.key} brought ${money(f, stale.revenue)} from ${stale.orders} order${stale.orders === 1 ? '' : 's'} but no order for ${Math.floor((f.until - stale.last) / DAY)} days.`,
    recommendation: 'Run a follow-up campaign for the same audience while it still remembers you.',
  }, 'top-performers');
};

/** 6. A product page with at least 20 views and fewer than 5% of them adding to cart (the most viewed such product). */
const viewedNotCarted: Rule = (f) => {
  const product = f.engagement
    .filter((p) => p.views >= 20 && p.adds * 20 < p.views)
    .sort((a, b) => b.views - a.views || a.product_id - b.product_id)[0];
  if (!product) return null;
  const name = product.product_name || `Product ${product.product_id}`;
  return win(f, {
    type: 'product_page_drop_off',
    key: `product_page_drop_off_${product.product_id}`,
    title: `${name} is viewed but not bought`,
    message: `${product.views} views led to ${product.adds} add-to-cart event${product.adds === 1 ? '' : 's'}.`,
    recommendation: 'Improve photos, description, price display and reviews on the product page.',
  }, 'products');
};

/** 7. Revenue fell by 20% or more against the previous period. */
const revenueDrop: Rule = (f) => {
  if (f.previousRevenue <= 0 || f.revenue > f.previousRevenue * 0.8) return null;
  return win(f, {
    type: 'revenue_drop',
    key: 'revenue_drop',
    title: 'Revenue is falling',
    message: `Revenue fell from ${money(f, f.previousRevenue)} to ${money(f, f.revenue)} (${percent(f.previousRevenue - f.revenue, f.previousRevenue)}% less) against the previous period.`,
    recommendation: 'Compare traffic sources and campaigns with the previous period to find what changed.',
  }, 'sales-cards');
};

/** The rules in the order their findings are listed. */
export const RULES: readonly Rule[] = [abandonedCarts, checkoutDropOff, revenueDrop, topProduct, weakCountry, campaignWithoutFollowUp, viewedNotCarted];
