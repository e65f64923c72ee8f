import type { SvcGlobal, SvcGoal } from './types';

/** Page id and type from `data-svc_id` / `data-svc_type` on `<body>` (tracking.md §2.4), else the options' page id. */
export function pageIdentity(svc: SvcGlobal): { page_id: number; page_type: string } {
  const data = document.body.dataset;
  return { page_id: Number(data.svc_id) || svc.options.page_id, page_type: data.svc_type || '' };
}

/** Lowercased path without trailing slash, as the server compares goal URLs. */
const goalPath = (url: string): string => new URL(url, location.href).pathname.toLowerCase().replace(/\/+$/, '');

/** Whether an active goal belongs to this page: every page, its page id, or its path (throws for an unparsable goal URL). */
export function goalApplies(goal: SvcGoal, pageId: number): boolean {
  return goal.url === '*' || !goal.url || (!!goal.page_id && goal.page_id === pageId) || goalPath(goal.url) === goalPath(location.href);
}
