import { randomBytes } from 'node:crypto';
import { type Clock, type Hooks, notFound, SvcError } from '../../../core';
import { STORY_TAB, isTokenFormat } from '../shared/constants';
import type { BoundLink, InitialState, ShareInput, ShareLink, ShareLinkType } from '../types';
import type { ReportsService } from './report-types';
import { parsePermissions } from './share-input';
import { shareUrl } from './share-urls';
import type { TokenRow, TokenStore } from './token-store';

/** Story links made for report mails live this long after the latest mail that carried them. */
export const REPORT_LINK_LIFETIME = 30 * 86_400;

export const emptyInitialState = (): InitialState => ({ date_range: { start: '', end: '' }, filters: {} });

export interface ShareTokensDeps {
  store: TokenStore;
  clock: Clock;
  baseUrl: string;
  hooks: Pick<Hooks, 'applyFilters'>;
  /** The reports plugin's service, when it is loaded. */
  reports(): ReportsService | undefined;
}

function json<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * The token service: the only place share links are created and resolved
 * (§4.6). A value that is not 32 lowercase hex characters is refused before
 * the database is asked. Every token belongs to one site: managing links
 * happens within a site, and a visitor's token resolves to its own site.
 */
export class ShareTokens {
  constructor(private readonly deps: ShareTokensDeps) {}

  /**
   * `get_share_links(type, token, report_id)`: live tokens of the type
   * (`all`, `link`: dashboard links, `report`: story links), narrowed by token
   * and report, newest first and indexed from 0. Asked for the report links of
   * an existing report that has none, it makes one.
   */
  async getShareLinks(siteId: number, type: ShareLinkType = 'all', token = '', reportId = 0): Promise<ShareLink[]> {
    if (token !== '' && !isTokenFormat(token)) return [];
    const rows = await this.deps.store.live(siteId, this.deps.clock.unix(), { type, token: token || undefined, reportId });
    if (rows.length === 0 && type === 'report' && token === '' && reportId > 0 && (await this.reportExists(siteId, reportId))) {
      return [await this.insertReportToken(siteId, reportId, await this.reportDefaults(reportId))];
    }
    return rows.map((row) => this.toLink(row));
  }

  /** The live link of `token` with its site, or null (malformed, unknown, expired or revoked). */
  async resolve(token: unknown): Promise<BoundLink | null> {
    if (!isTokenFormat(token)) return null;
    const row = await this.deps.store.find(token, this.deps.clock.unix());
    return row ? { ...this.toLink(row), siteId: row.site_id } : null;
  }

  /** `get_share_token` on a site: a new dashboard link, or the report's token (made or renewed). */
  async create(siteId: number, input: ShareInput): Promise<BoundLink> {
    if (input.reportId === 0) return this.insert(siteId, input);
    if (!(await this.reportExists(siteId, input.reportId))) throw notFound(`Report ${input.reportId} does not exist.`, 'svc_report_not_found');
    const [existing] = await this.deps.store.live(siteId, this.deps.clock.unix(), { type: 'report', reportId: input.reportId });
    if (!existing) return this.insertReportToken(siteId, input.reportId, input);
    await this.deps.store.renew(existing.token, input);
    return (await this.resolve(existing.token))!;
  }

  /** Removes a link of the site; false when the site has no live link with that token. */
  async revoke(siteId: number, token: string): Promise<boolean> {
    if (!isTokenFormat(token)) return false;
    return this.deps.store.delete(siteId, token);
  }

  /** The story URL of a site's report for its mails: its token, made when missing and kept alive 30 days from now. */
  async reportLink(siteId: number, reportId: number): Promise<string> {
    const [link] = await this.getShareLinks(siteId, 'report', '', reportId);
    if (!link) throw notFound(`Report ${reportId} does not exist.`, 'svc_report_not_found');
    await this.deps.store.extend(link.token, this.deps.clock.unix() + REPORT_LINK_LIFETIME);
    return link.url;
  }

  /** Daily: expired tokens, and tokens of reports that were deleted, go. */
  async purge(): Promise<{ expired: number; orphaned: number }> {
    const expired = await this.deps.store.deleteExpired(this.deps.clock.unix());
    let orphaned = 0;
    if (this.deps.reports()) {
      for (const { siteId, reportId } of await this.deps.store.reportIds()) {
        if (!(await this.reportExists(siteId, reportId))) orphaned += await this.deps.store.deleteForReport(siteId, reportId);
      }
    }
    return { expired, orphaned };
  }

  private async reportExists(siteId: number, reportId: number): Promise<boolean> {
    const reports = this.deps.reports();
    return Boolean(reports && (await reports.reportObject(siteId, reportId)));
  }

  private async reportDefaults(reportId: number): Promise<ShareInput> {
    return {
      expires: this.deps.clock.unix() + REPORT_LINK_LIFETIME,
      tab: STORY_TAB,
      viewQuery: '',
      permissions: await parsePermissions({}, this.deps.hooks),
      sharedTabs: [STORY_TAB],
      initialState: emptyInitialState(),
      reportId,
    };
  }

  private async insert(siteId: number, input: ShareInput): Promise<BoundLink> {
    const token = randomBytes(16).toString('hex');
    if (!(await this.deps.store.insert(siteId, token, input, this.deps.clock.unix()))) {
      throw new SvcError('svc_share_token_collision', 'A new share token collided with a stored one; try again.', 500);
    }
    return (await this.resolve(token))!;
  }

  /** One token per report: of two nodes making it at once, the second renews the first one's. */
  private async insertReportToken(siteId: number, reportId: number, input: ShareInput): Promise<BoundLink> {
    const token = randomBytes(16).toString('hex');
    if (await this.deps.store.insert(siteId, token, input, this.deps.clock.unix())) return (await this.resolve(token))!;
    const [winner] = await this.deps.store.live(siteId, this.deps.clock.unix(), { type: 'report', reportId });
    if (!winner) throw new SvcError('svc_share_token_collision', 'The report link could not be stored; try again.', 500);
    await this.deps.store.renew(winner.token, input);
    return (await this.resolve(winner.token))!;
  }

  private toLink(row: TokenRow): ShareLink {
    const state = json<Partial<InitialState>>(row.initial_state, {});
    return {
      token: row.token,
      url: shareUrl(this.deps.baseUrl, row.tab, row.token, row.view_query),
      expires: row.expires,
      created: row.created,
      report_id: row.report_id,
      permissions: { can_change_date: false, can_filter: false, ...json(row.permissions, {}) },
      shared_tabs: json<string[]>(row.shared_tabs, []),
      initial_state: { ...emptyInitialState(), ...state },
    };
  }
}
