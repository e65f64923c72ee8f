import type { PluginContext } from '../../../core';
import type { ShareLink, ShareLinkType } from '../types';
import type { ShareTokens } from './tokens';

/** The programmatic interface of §4.6, offered to other plugins as the `share` service. */
export interface ShareService {
  tokens: {
    /** Live tokens of the current site of a type (`all`, `link`, `report`), narrowed by token and report; a report's token is made when missing. */
    get_share_links(type?: ShareLinkType, token?: string, report_id?: number): Promise<ShareLink[]>;
  };
}

declare module '../../../core/plugins/services' {
  interface SvcServices {
    share: ShareService;
  }
}

/** The site is the request's (`ctx.sites.current()`), the default site outside a request, so the documented signature stays. */
export function shareService(tokens: ShareTokens, sites: PluginContext['sites']): ShareService {
  return { tokens: { get_share_links: async (type, token, reportId) => tokens.getShareLinks((await sites.current()).id, type, token, reportId) } };
}
