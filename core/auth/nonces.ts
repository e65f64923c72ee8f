import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import type { PluginHooks } from '../hooks/registry';
import type { Principal } from './types';

/** Half of the 24-hour life: a nonce stays valid for the tick it was made in and the next. */
const TICK_SECONDS = 12 * 60 * 60;

/**
 * WordPress-style nonces: an HMAC of the time tick, the action, the user and
 * the sign-in session, so a nonce works only for the principal it was made
 * for. Nothing is stored, so every app node can check every nonce.
 */
export class Nonces {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly hooks: Pick<PluginHooks, 'applyFilters'>,
  ) {}

  create(principal: Principal, action: string): string {
    return this.sign(this.tick(), action, principal);
  }

  /** Checks the signature, then lets `svc_verify_nonce` have the last word. */
  async verify(nonce: unknown, action: string, principal: Principal): Promise<boolean> {
    const given = typeof nonce === 'string' && nonce !== '' ? nonce : null;
    let valid = false;
    if (given && principal.user) {
      const tick = this.tick();
      valid = [tick, tick - 1].some((t) => safeEqual(given, this.sign(t, action, principal)));
    }
    return this.hooks.applyFilters('svc_verify_nonce', valid, given, action);
  }

  private tick(): number {
    return Math.floor(this.clock.unix() / TICK_SECONDS);
  }

  private sign(tick: number, action: string, principal: Principal): string {
    return createHmac('sha256', this.secret)
      .update(`${tick}|${action}|${principal.user?.id ?? 0}|${principal.sessionId ?? ''}`)
      .digest('hex')
      .slice(0, 20);
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
