import { gatherFacts, sufficient } from '../quick-wins/facts';
import { type QuickWin, RULES } from '../quick-wins/rules';
import type { ShopQueries } from '../shop-queries';
import type { SalesWindow } from '../window';

/** §2.3: findings of the quick-win rules for the window; `dateRange` null when the window has too little data. */
export async function quickWins(q: ShopQueries, w: SalesWindow, now: number, tabUrl: string) {
  const url = `${tabUrl}?date_start=${w.dateStart}&date_end=${w.dateEnd}`;
  const facts = await gatherFacts(q, w, now, url);
  if (!sufficient(facts)) return { quickWins: [] as QuickWin[], dateRange: null };
  const found = RULES.map((rule) => rule(facts)).filter((x): x is QuickWin => x !== null);
  return { quickWins: found, dateRange: { date_start: w.dateStart, date_end: w.dateEnd } };
}
