import type { SvcMenuItem } from '../../../hooks';
import type { Hooks } from '../../../core';
import { type ShareTab, isShareTab } from '../shared/constants';

/** A dashboard tab a link can share now (§2.5 shareable tab entry, plus its admin page). */
export interface ShareableTab {
  id: ShareTab;
  title: string;
  /** The tab's page below `/svc-admin`, e.g. `/statistics`. */
  adminPath: string;
}

const ADMIN_PREFIX = '/svc-admin/';

/** True when the license allows the tab: `sales` belongs to the Business tier. */
export const licensed = (tab: string, business: boolean): boolean => tab !== 'sales' || business;

/**
 * The shareable tabs of this site: menu items marked shareable whose id is in
 * the whitelist, whose page lives in the admin area, and that the license allows.
 */
export async function shareableTabs(hooks: Pick<Hooks, 'applyFilters'>, business: boolean): Promise<ShareableTab[]> {
  const menu: SvcMenuItem[] = await hooks.applyFilters('svc_menu', []);
  const tabs: ShareableTab[] = [];
  for (const item of [...menu].sort((a, b) => (a.order ?? 50) - (b.order ?? 50))) {
    if (!item.shareable || !isShareTab(item.id) || !licensed(item.id, business) || !item.path.startsWith(ADMIN_PREFIX)) continue;
    if (tabs.some((t) => t.id === item.id)) continue;
    tabs.push({ id: item.id, title: item.title, adminPath: item.path.slice(ADMIN_PREFIX.length - 1).replace(/\/+$/, '') });
  }
  return tabs;
}
