import type { Goal } from './goal';

/** Path of a goal URL or page URL, lowercased, without trailing slash, query or fragment. */
export function normaliseGoalUrl(value: string): { host: string; path: string } {
  let host = '';
  let path = value.trim();
  const absolute = /^https?:\/\//i.test(path);
  if (absolute) {
    try {
      const url = new URL(path);
      host = url.host.toLowerCase();
      path = url.pathname;
    } catch {
      return { host: '', path: '' };
    }
  }
  path = path.split(/[?#]/)[0]!.toLowerCase();
  try {
    path = decodeURI(path);
  } catch {
    // keep the encoded form
  }
  path = path.replace(/\/+$/, '');
  return { host, path: path || '/' };
}

export interface GoalHit {
  page_id: number;
  host: string;
  path: string;
  completed_goals: number[];
}

/**
 * Goals a hit completes (tracking.md §3.3 step 9, §8.1): client-reported goals
 * that are active, and visits goals of the page — by page id when both sides
 * have one, else by normalised URL.
 */
export function completedGoals(active: readonly Goal[], hit: GoalHit, pageview: boolean): number[] {
  if (active.length === 0) return [];
  const done = new Set<number>();
  const byId = new Map(active.map((g) => [g.ID, g]));
  for (const id of hit.completed_goals) {
    const goal = byId.get(id);
    if (goal && goal.type !== 'hook') done.add(id);
  }
  if (!pageview) return [...done];
  const page = normaliseGoalUrl(hit.path);
  for (const goal of active) {
    if (goal.type !== 'visits') continue;
    if (goal.page_id > 0 && hit.page_id > 0) {
      if (goal.page_id === hit.page_id) done.add(goal.ID);
      continue;
    }
    if (goal.url === '*' || goal.url === '') continue;
    const target = normaliseGoalUrl(goal.url);
    if (target.path === page.path && (target.host === '' || target.host === hit.host)) done.add(goal.ID);
  }
  return [...done];
}
