import type { ApplicationPasswords } from './app-passwords';
import type { SessionStore } from './sessions';
import type { SvcUser } from './types';
import type { Users } from './users';

/**
 * Account changes that reach past the users table: a new password ends the
 * account's other sign-ins, a removed account takes its sign-ins and
 * application passwords with it. The admin pages and `svc user` use these.
 */
export class Accounts {
  constructor(
    private readonly users: Users,
    private readonly appPasswords: ApplicationPasswords,
    private readonly sessions: Pick<SessionStore, 'destroyForUser'>,
  ) {}

  /** Sets the password and signs the account out everywhere but in the session `keep` (the person's own). */
  async setPassword(user: SvcUser, password: string, keep?: string): Promise<void> {
    await this.users.setPassword(user.id, password);
    await this.sessions.destroyForUser(user.id, keep);
  }

  async remove(id: number): Promise<SvcUser> {
    const user = await this.users.remove(id);
    await this.appPasswords.revokeAll(id);
    await this.sessions.destroyForUser(id);
    return user;
  }
}
