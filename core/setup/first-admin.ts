import type { Users } from '../auth/users';
import type { SvcConfig } from '../config';
import { SvcError } from '../errors';
import type { SvcLogger } from '../logger';
import { generateSecret } from '../auth/passwords';

/**
 * Creates the first administrator when no user exists: `SVC_ADMIN_USER`
 * (default `admin`) with `SVC_ADMIN_PASSWORD`, or a generated password that is
 * written once through `announce`.
 */
export async function ensureFirstAdmin(
  users: Users,
  config: SvcConfig,
  logger: SvcLogger,
  announce: (line: string) => void,
): Promise<void> {
  if ((await users.count()) > 0) return;
  const login = config.admin.user ?? 'admin';
  const password = config.admin.password ?? generateSecret(20);
  try {
    await users.create({ login, email: config.admin.email ?? '', role: 'administrator', password });
  } catch (err) {
    // Another node created the first user at the same moment.
    if (err instanceof SvcError && err.code === 'svc_user_exists') return;
    throw err;
  }
  logger.info({ login }, 'first administrator created');
  if (!config.admin.password) {
    announce(`svc: created administrator "${login}" with password ${password} (shown once; change it after signing in)`);
  }
}
