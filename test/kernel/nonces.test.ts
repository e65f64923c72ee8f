import { Nonces } from '../../core/auth/nonces';
import type { Principal, SvcUser } from '../../core/auth/types';
import { ManualClock } from '../../core/clock';
import { HookRegistry } from '../../core/hooks/registry';
import { createMemoryLogger } from '../../core/logger';

const user = (id: number): SvcUser => ({ id, login: `u${id}`, email: '', role: 'administrator', displayName: `u${id}`, system: false });
const session = (id: number, sessionId: string): Principal => ({ user: user(id), method: 'session', sessionId });
const HOUR = 3600;
/** A time at the very start of a 12-hour tick. */
const TICK_START = Date.UTC(2024, 0, 1, 0, 0, 0);

describe('nonces', () => {
  let clock: ManualClock;
  let hooks: HookRegistry;
  let nonces: Nonces;
  beforeEach(() => {
    clock = new ManualClock(TICK_START);
    hooks = new HookRegistry(createMemoryLogger().logger);
    nonces = new Nonces('a'.repeat(64), clock, hooks);
  });

  it('is bound to the user, the sign-in session and the action', async () => {
    const alice = session(1, 'sid-1');
    const nonce = nonces.create(alice, 'svc_nonce');
    expect(nonce).toMatch(/^[0-9a-f]{20}$/);
    expect(await nonces.verify(nonce, 'svc_nonce', alice)).toBe(true);
    expect(await nonces.verify(nonce, 'svc_admin', alice)).toBe(false);
    expect(await nonces.verify(nonce, 'svc_nonce', session(1, 'sid-2'))).toBe(false);
    expect(await nonces.verify(nonce, 'svc_nonce', session(2, 'sid-1'))).toBe(false);
    expect(await nonces.verify(nonce, 'svc_nonce', { user: null, method: 'anonymous', sessionId: null })).toBe(false);
    expect(new Nonces('b'.repeat(64), clock, hooks).create(alice, 'svc_nonce')).not.toBe(nonce);
  });

  it('refuses missing, malformed and foreign values without throwing', async () => {
    const alice = session(1, 'sid-1');
    for (const bad of [undefined, null, '', 42, ['x'], { n: 1 }, 'x'.repeat(5000), nonces.create(alice, 'svc_nonce').toUpperCase()]) {
      expect(await nonces.verify(bad, 'svc_nonce', alice)).toBe(false);
    }
  });

  it('lives between 12 and 24 hours, never longer', async () => {
    const alice = session(1, 'sid-1');
    const early = nonces.create(alice, 'svc_nonce');
    clock.advance(24 * HOUR - 1);
    expect(await nonces.verify(early, 'svc_nonce', alice)).toBe(true);
    clock.advance(1);
    expect(await nonces.verify(early, 'svc_nonce', alice)).toBe(false);

    clock.set(TICK_START + (12 * HOUR - 1) * 1000);
    const late = nonces.create(alice, 'svc_nonce');
    clock.advance(12 * HOUR);
    expect(await nonces.verify(late, 'svc_nonce', alice)).toBe(true);
    clock.advance(1);
    expect(await nonces.verify(late, 'svc_nonce', alice)).toBe(false);
  });

  it('lets svc_verify_nonce have the last word, with the nonce and the action', async () => {
    const seen: unknown[] = [];
    hooks.addFilter('svc_verify_nonce', (valid, nonce, action) => {
      seen.push([valid, nonce, action]);
      return valid || nonce === 'share-token-header';
    });
    const viewer = session(9, 'sid-9');
    expect(await nonces.verify('share-token-header', 'svc_nonce', viewer)).toBe(true);
    expect(await nonces.verify(undefined, 'svc_nonce', viewer)).toBe(false);
    expect(seen).toEqual([
      [false, 'share-token-header', 'svc_nonce'],
      [false, null, 'svc_nonce'],
    ]);
  });
});
