import { createHash, randomBytes } from 'node:crypto';
import type { Clock, Options } from '../../../core';

interface StoredSalt {
  date: string;
  salt: string;
}

export const SALT_OPTION = 'svc_rotating_salt';

const utcDate = (clock: Clock) => clock.now().toISOString().slice(0, 10);

const hashUid = (ip: string, userAgent: string, salt: string) => createHash('sha256').update(ip + userAgent + salt).digest('hex');

/**
 * The private-mode daily salt (tracking.md §3.4): 32 random bytes, hex, keyed
 * by UTC date, in the non-autoloaded option `svc_rotating_salt`. Nodes agree
 * on one salt per day: the first to store it wins (insert-if-absent, then a
 * compare-and-swap on yesterday's value) and everyone reads the winner.
 */
export class RotatingSalt {
  private current: StoredSalt | null = null;
  private loading: Promise<StoredSalt> | null = null;

  constructor(
    private readonly options: Options,
    private readonly clock: Clock,
  ) {}

  async forToday(): Promise<string> {
    const today = utcDate(this.clock);
    if (this.current?.date === today) return this.current.salt;
    this.loading ??= this.agree(today).finally(() => (this.loading = null));
    const agreed = await this.loading;
    if (agreed.date !== today) return this.forToday();
    this.current = agreed;
    return agreed.salt;
  }

  /** Private-mode uid: hex SHA-256 of IP, user agent and today's salt. */
  async uid(ip: string, userAgent: string): Promise<string> {
    return hashUid(ip, userAgent, await this.forToday());
  }

  /** The private-mode uid when today's salt is in memory, else null (then `uid()`). */
  uidNow(ip: string, userAgent: string): string | null {
    return this.current?.date === utcDate(this.clock) ? hashUid(ip, userAgent, this.current.salt) : null;
  }

  private async agree(today: string): Promise<StoredSalt> {
    const fresh: StoredSalt = { date: today, salt: randomBytes(32).toString('hex') };
    const stored = await this.options.get<StoredSalt>(SALT_OPTION);
    if (stored?.date === today) return stored;
    if (!stored) {
      await this.options.add(SALT_OPTION, fresh, { autoload: false });
    } else {
      await this.options.compareAndSet(SALT_OPTION, stored, fresh);
    }
    const winner = await this.options.get<StoredSalt>(SALT_OPTION);
    return winner && /^[0-9a-f]{64}$/.test(winner.salt) ? winner : fresh;
  }
}
