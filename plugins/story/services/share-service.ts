import type { ShareLink, ShareLinkType } from '../types';
import type { ShareTokens } from './tokens';

/** The programmatic interface of §4.6, offered to other plugins as the `share` service. */
export interface ShareService {
  tokens: {
    /** Live tokens of a type (`all`, `link`, `report`), narrowed by token and report; a report's token is made when missing. */
    get_share_links(type?: ShareLinkType, token?: string, report_id?: number): Promise<ShareLink[]>;
  };
}

declare module '../../../core/plugins/services' {
  interface SvcServices {
    share: ShareService;
  }
}

export function shareService(tokens: ShareTokens): ShareService {
  return { tokens: { get_share_links: (type, token, reportId) => tokens.getShareLinks(type, token, reportId) } };
}
