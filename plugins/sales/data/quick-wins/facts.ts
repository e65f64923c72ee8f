import type { FunnelCounts, ProductEngagement, ProductFigures, RevenueRow, ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

/** What the quick-win rules look at, gathered once per request. */
export interface ShopFacts {
  window: SalesWindow;
  /** Latest instant of the window that has happened. */
  until: number;
  funnel: FunnelCounts;
  carts: { carts: number; converted: number };
  revenue: number;
  previousRevenue: number;
  products: ProductFigures[];
  engagement: ProductEngagement[];
  countries: Array<{ country: string; visitors: number; buyers: number }>;
  campaigns: RevenueRow[];
  /** URL of the sales tab opened on the window, scrolled to `section`. */
  link(section: string): string;
}

export async function gatherFacts(q: ShopQueries, w: SalesWindow, now: number, link: (section: string) => string): Promise<ShopFacts> {
  const [funnel, carts, current, previous, products, engagement, countries, campaigns] = await Promise.all([
    q.funnel(w.scope, null),
    q.carts(w.scope),
    q.orders(w.scope, w.currency),
    q.orders(w.previous, w.currency),
    q.products(w.scope, w.currency, 3),
    q.engagement(w.scope),
    q.countries(w.scope),
    q.revenueBy('campaign', w.scope, w.currency, 20),
  ]);
  return {
    window: w,
    until: Math.min(now, w.scope.range.end),
    funnel,
    carts,
    revenue: current.revenue,
    previousRevenue: previous.revenue,
    products,
    engagement,
    countries,
    campaigns,
    link,
  };
}

/** Enough to say something: at least one order or one add-to-cart in the window. */
export const sufficient = (f: ShopFacts): boolean => f.funnel.orders > 0 || f.funnel.carts > 0;
