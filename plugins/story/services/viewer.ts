import { type ApplicationPasswords, type Principal, type SessionStore, SvcError, type SvcUser, type Users } from '../../../core';

/** The system account share-link visitors are signed in as (§5 rule 6). */
export const VIEWER_LOGIN = 'svc_statistics_viewer';
export const VIEWER_ROLE = 'svc_viewer';

/** Any account with the viewer role is treated as a share-link visitor and confined to its link. */
export const isViewer = (principal: Principal): boolean => principal.user?.role === VIEWER_ROLE;

export interface ViewerDeps {
  users: Users;
  appPasswords: ApplicationPasswords;
  sessions: Pick<SessionStore, 'destroyForUser'>;
}

/**
 * The viewer account: made at start when missing, refused when someone took
 * its name for a person's account, stripped of application passwords.
 */
export class ViewerAccount {
  private account: SvcUser | null = null;

  constructor(private readonly deps: ViewerDeps) {}

  /** Finds or creates the account and deletes any application password it has (v3.4.2 hardening). */
  async prepare(): Promise<{ user: SvcUser; revokedPasswords: number }> {
    let user = await this.deps.users.findByLogin(VIEWER_LOGIN);
    if (!user) {
      try {
        user = await this.deps.users.create({ login: VIEWER_LOGIN, role: VIEWER_ROLE, password: '', system: true, displayName: 'Shared view' });
      } catch (err) {
        // Another app node made it at the same moment.
        if (!(err instanceof SvcError && err.code === 'svc_user_exists')) throw err;
        user = await this.deps.users.findByLogin(VIEWER_LOGIN);
      }
    }
    if (!user || user.role !== VIEWER_ROLE || !user.system) {
      throw new SvcError(
        'SVC_ERR_VIEWER_ACCOUNT',
        `The account ${VIEWER_LOGIN} exists but is not the system viewer (role ${VIEWER_ROLE}); rename it so share links can sign visitors in.`,
        500,
      );
    }
    this.account = user;
    return { user, revokedPasswords: await this.deps.appPasswords.revokeAll(user.id) };
  }

  get user(): SvcUser {
    if (!this.account) throw new SvcError('SVC_ERR_VIEWER_ACCOUNT', 'The viewer account is not ready.', 500);
    return this.account;
  }

  /** Signs every share-link visitor out (the daily job: no viewer session outlives 24 hours). */
  endAllSessions(): Promise<number> {
    return this.deps.sessions.destroyForUser(this.user.id);
  }
}
