import { badRequest } from '../../../../core';
import { percent } from '../money';
import type { DistributionKey, SubscriptionQueries } from '../subscription-queries';
import type { SalesWindow } from '../window';

const VIEWS: Readonly<Record<string, DistributionKey>> = { gateways: 'gateway', currencies: 'currency', countries: 'country_code' };
const regions = new Intl.DisplayNames(['en'], { type: 'region' });

export function distributionView(raw: unknown): DistributionKey {
  if (raw === undefined || raw === null || raw === '') return 'gateway';
  const key = typeof raw === 'string' ? VIEWS[raw] : undefined;
  if (!key) throw badRequest('distribution_view must be gateways, currencies or countries.', 'svc_invalid_param', { field: 'distribution_view' });
  return key;
}

/** A stable key: lower case, runs of other characters as one dash. */
export const sanitiseKey = (value: string): string => value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'unknown';

function labelOf(key: DistributionKey, value: string): string {
  if (value === '') return 'Unknown';
  if (key === 'currency') return value;
  if (key === 'country_code') return regions.of(value) ?? value;
  return value.replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

/** §2.7: subscription events of the window by gateway, currency or country, most frequent first. */
export async function distribution(q: SubscriptionQueries, w: SalesWindow, key: DistributionKey) {
  const groups = await q.distribution(w.scope.range, key);
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  return groups.map((g) => ({ id: sanitiseKey(g.key), label: labelOf(key, g.key), count: g.count, value: percent(g.count, total) }));
}
