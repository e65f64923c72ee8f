import type { RateLimit, RateLimiter } from '../db/rate-limiter';
import { normaliseLogin } from './login-names';

/** Password checks per login and address: 5 in each 15 minutes (README, "Limits"). */
export const PER_LOGIN: RateLimit = { name: 'login', max: 5, window: 15 * 60 };
/** Password checks per address, whatever the login: 30 in each hour (README, "Limits"). */
export const PER_ADDRESS: RateLimit = { name: 'login_ip', max: 30, window: 60 * 60 };

/**
 * The budget of password checks that the sign-in form, the current-password
 * check and HTTP Basic share. Each attempt is counted before its password is
 * looked at, so concurrent guesses cannot all slip in; a right password hands
 * its attempt back. The login part of the key is the normalised name, so
 * look-alike spellings draw from the same budget.
 */
export class LoginLimiter {
  constructor(private readonly limiter: RateLimiter) {}

  /** Counts an attempt; answers the seconds to wait when a budget is spent, else 0 (go ahead and check). */
  async attempt(login: string, ip: string): Promise<number> {
    const counts = await Promise.all([this.limiter.hit(PER_LOGIN, this.key(login, ip)), this.limiter.hit(PER_ADDRESS, ip)]);
    return Math.max(0, ...counts.filter((c) => !c.allowed).map((c) => c.retryAfter));
  }

  /** The password was right: the login starts afresh and the address gets its attempt back. */
  async succeeded(login: string, ip: string): Promise<void> {
    await Promise.all([this.limiter.reset(PER_LOGIN, this.key(login, ip)), this.limiter.giveBack(PER_ADDRESS, ip)]);
  }

  private key(login: string, ip: string): string {
    return `${normaliseLogin(login)}_${ip}`;
  }
}
