import { licenseAllows, type PluginContext } from '../../core';
import { ShareSessions } from './services/share-sessions';
import { type ShareableTab, shareableTabs } from './services/tabs';
import { TokenStore } from './services/token-store';
import { ShareTokens } from './services/tokens';
import { ViewerAccount } from './services/viewer';
import type { ReportsService } from './services/report-types';

/** The story plugin's parts, wired once from the kernel services. */
export interface StoryApp {
  tokens: ShareTokens;
  viewer: ViewerAccount;
  sessions: ShareSessions;
  /** True on the Business license, which the `sales` tab needs. */
  business: boolean;
  /** Tabs a link can share now. */
  tabs(): Promise<ShareableTab[]>;
  reports(): ReportsService | undefined;
}

export function createStoryApp(ctx: PluginContext): StoryApp {
  const reports = () => ctx.services.get('reports');
  const business = licenseAllows(ctx.config.license, 'business');
  const tokens = new ShareTokens({ store: new TokenStore(ctx.db), clock: ctx.clock, baseUrl: ctx.config.baseUrl, hooks: ctx.hooks, reports });
  const viewer = new ViewerAccount({ users: ctx.auth.users, appPasswords: ctx.auth.appPasswords, sessions: ctx.auth.sessions });
  const sessions = new ShareSessions({ tokens, viewer, clock: ctx.clock, hooks: ctx.hooks, basePath: ctx.config.basePath });
  return { tokens, viewer, sessions, business, tabs: () => shareableTabs(ctx.hooks, business), reports };
}
