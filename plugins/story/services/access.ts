import type { SvcSharePermissions } from '../../../hooks';
import { type Clock, forbidden, isoDay, type RestRequest, type SvcError } from '../../../core';
import { isShareTab } from '../shared/constants';
import type { BoundLink } from '../types';
import type { ReportsService } from './report-types';
import { licensed } from './tabs';
import { forceView } from './view-state';

export interface AccessDeps {
  reports(): ReportsService | undefined;
  business: boolean;
  clock: Clock;
}

const refuse = (message: string) => forbidden(message, 'svc_share_forbidden');

/**
 * What a share session's REST request may do, decided on the route that
 * actually runs (never on body fields). Dashboard links reach the data
 * routes of their tabs; report links only the endpoints of their report's
 * blocks (§4.5); either only of the link's own site, whatever `site` the
 * request names. Limits are forced onto `request.query`; null lets it run.
 */
export async function decideAccess(request: RestRequest, link: BoundLink, permissions: SvcSharePermissions, deps: AccessDeps): Promise<SvcError | null> {
  const { route } = request;
  const tab = route.meta.tab;
  if (route.method !== 'GET' || typeof tab !== 'string') return refuse('A shared view can only read dashboard data.');
  if (request.site.id !== link.siteId) return refuse('This share link reads the data of its own site only.');
  if (link.report_id > 0) return reportAccess(request, link, permissions, deps);
  if (!isShareTab(tab) || !link.shared_tabs.includes(tab) || !licensed(tab, deps.business)) {
    return refuse(`This share link does not share the ${tab} tab.`);
  }
  forceView(request.query, link, permissions, isoDay(deps.clock.unix(), request.site.timezone));
  return null;
}

async function reportAccess(request: RestRequest, link: BoundLink, permissions: SvcSharePermissions, deps: AccessDeps): Promise<SvcError | null> {
  const dataId = request.route.meta.dataId;
  const reports = deps.reports();
  if (typeof dataId !== 'string' || !reports) return refuse('This data is not part of the shared report.');
  const report = await reports.reportObject(link.siteId, link.report_id, { is_shared_link: true });
  if (!report || Array.isArray(report)) return refuse('This report is not available.');
  const block = report.content.find((b) => reports.blockEndpoints(b.id).includes(dataId));
  if (!block) return refuse('This data is not part of the shared report.');
  request.query.filters = block.filters.map((f) => ({ key: f.key, value: f.value }));
  if (!permissions.can_change_date) {
    const span = reports.blockPeriod(request.site, block, report);
    request.query.date_start = span.start;
    request.query.date_end = span.end;
  }
  return null;
}
