import { randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { SvcError } from '../errors';

/** Password checks allowed to wait for their turn; more answer 429 `svc_auth_busy` (README, "Limits"). */
export const MAX_WAITING_CHECKS = 32;

/** The share of the time hashing may take: after a hash that took t ms, the next starts 3t ms later at the soonest. */
const HASHING_SHARE = 0.25;

let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;
let restUntil = 0;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const hash = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

/**
 * scrypt runs in libuv's thread pool, which SQLite and the file system share,
 * on cores that serve tracking: one hash at a time per process, and checks
 * (`paced`, what anonymous callers can set off) take at most a quarter of the
 * time, however many arrive. Hashing a new password is not paced.
 */
function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions, paced: boolean): Promise<Buffer> {
  if (waiting >= MAX_WAITING_CHECKS) {
    return Promise.reject(new SvcError('svc_auth_busy', 'Too many password checks are waiting; try again in a few seconds.', 429, { retry_after: 5 }));
  }
  waiting++;
  const run = queue.then(async () => {
    const rest = restUntil - Date.now();
    if (paced && rest > 0) await pause(rest);
    waiting--;
    const started = Date.now();
    try {
      return await hash(password, salt, keylen, options);
    } finally {
      if (paced) restUntil = Date.now() + (Date.now() - started) * (1 / HASHING_SHARE - 1);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash`, base64 parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { ...PARAMS, maxmem: 64 * 1024 * 1024 }, false);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyB64, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, options, true);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash no password matches in practice, with the parameters of real ones. */
const NOBODY = ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, Buffer.alloc(16).toString('base64'), Buffer.alloc(KEYLEN).toString('base64')].join('$');

/**
 * The work of a password check without an account to check against (unknown
 * login, system account, no such application password), so that the answer
 * takes as long as for a known one. Always false.
 */
export async function verifyNobody(password: string): Promise<false> {
  await verifyPassword(password, NOBODY);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random secret of `length` unambiguous letters and digits. */
export function generateSecret(length = 24): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
