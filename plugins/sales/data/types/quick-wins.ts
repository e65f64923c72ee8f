import { dashboardUrl } from '../../../../core';
import { SALES_TAB_PATH } from '../../admin/tab';
import { gatherFacts, sufficient } from '../quick-wins/facts';
import { type QuickWin, RULES } from '../quick-wins/rules';
import type { ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

/**
 * §2.3: findings of the quick-win rules for the window; `dateRange` null
 * when the window has too little data. Each finding links to the sales tab
 * opened on the window (`baseUrl` is `{base_url}`).
 */
export async function quickWins(q: ShopQueries, w: SalesWindow, now: number, baseUrl: string) {
  const link = (section: string) => dashboardUrl(baseUrl, SALES_TAB_PATH, w, { section });
  const facts = await gatherFacts(q, w, now, link);
  if (!sufficient(facts)) return { quickWins: [] as QuickWin[], dateRange: null };
  const found = RULES.map((rule) => rule(facts)).filter((x): x is QuickWin => x !== null);
  return { quickWins: found, dateRange: { date_start: w.dateStart, date_end: w.dateEnd } };
}
