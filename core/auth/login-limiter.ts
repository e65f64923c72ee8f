import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '../db/database';
import { createRateLimiter, RateLimiterRes } from '../db/rate-limiter';

/**
 * Failed sign-ins are counted per login and address (5 per 15 minutes) and per
 * address (30 per hour), in the database so that app nodes share the count.
 */
export class LoginLimiter {
  private constructor(
    private readonly perLogin: RateLimiterAbstract,
    private readonly perIp: RateLimiterAbstract,
  ) {}

  static async create(db: Database): Promise<LoginLimiter> {
    const [perLogin, perIp] = await Promise.all([
      createRateLimiter(db, { keyPrefix: 'login', points: 5, duration: 15 * 60, blockDuration: 15 * 60 }),
      createRateLimiter(db, { keyPrefix: 'login_ip', points: 30, duration: 60 * 60, blockDuration: 60 * 60 }),
    ]);
    return new LoginLimiter(perLogin, perIp);
  }

  /** Seconds the caller must wait, or 0 when an attempt is allowed. */
  async retryAfter(login: string, ip: string): Promise<number> {
    const [a, b] = await Promise.all([this.perLogin.get(this.key(login, ip)), this.perIp.get(ip)]);
    const blocked = [
      a && a.consumedPoints >= 5 ? a.msBeforeNext : 0,
      b && b.consumedPoints >= 30 ? b.msBeforeNext : 0,
    ];
    return Math.ceil(Math.max(...blocked) / 1000);
  }

  async failed(login: string, ip: string): Promise<void> {
    await Promise.all([this.perLogin.consume(this.key(login, ip), 1), this.perIp.consume(ip, 1)]).catch((err: unknown) => {
      if (!(err instanceof RateLimiterRes)) throw err;
    });
  }

  async succeeded(login: string, ip: string): Promise<void> {
    await this.perLogin.delete(this.key(login, ip));
  }

  private key(login: string, ip: string): string {
    return `${login.toLowerCase()}_${ip}`;
  }
}
