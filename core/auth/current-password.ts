import type { LoginLimiter } from './login-limiter';
import type { SvcUser } from './types';
import type { Users } from './users';

export type CurrentPasswordCheck = { ok: true } | { ok: false; retryAfter: number };

/**
 * Checks the password a signed-in person types to change it. Wrong guesses
 * count against the same budget as the sign-in form for that login and
 * address (core/auth/login-limiter.ts), so a borrowed session cannot guess
 * faster than the login form; `retryAfter` is the wait in seconds when the
 * budget is spent, 0 for a plain wrong password.
 */
export async function checkCurrentPassword(limiter: LoginLimiter, users: Users, user: SvcUser, password: string, ip: string): Promise<CurrentPasswordCheck> {
  const wait = await limiter.attempt(user.login, ip);
  if (wait > 0) return { ok: false, retryAfter: wait };
  if (password !== '' && (await users.authenticate(user.login, password))?.id === user.id) {
    await limiter.succeeded(user.login, ip);
    return { ok: true };
  }
  return { ok: false, retryAfter: 0 };
}
