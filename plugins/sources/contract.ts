import type { Transaction } from 'sequelize';

/** A UTM field the sources plugin parses from pageviews. */
export type UtmField = 'campaign' | 'source';

/** What the sources plugin offers other plugins (`ctx.services.get('campaigns')`). */
export interface CampaignsService {
  /** The first non-empty value of `field` among a session's parsed pageviews, '' without one. */
  sessionUtm(sessionId: number, field: UtmField, transaction?: Transaction): Promise<string>;
}

declare module '../../core/plugins/services' {
  interface SvcServices {
    campaigns: CampaignsService;
  }
}
