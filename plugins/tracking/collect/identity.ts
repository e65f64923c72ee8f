import type { PrivacyLevel } from '../../../core/settings/tracking-settings';
import type { RotatingSalt } from './rotating-salt';

export interface Identity {
  uid: string;
  fingerprint: string;
}

export interface IdentityInput {
  privacyLevel: PrivacyLevel;
  headless: boolean;
  /** Cleaned payload ids ('' when missing or junk). */
  uid: string;
  fingerprint: string;
  ip: string;
  /** The request's User-Agent header (present on heartbeats too), else the payload's. */
  userAgent: string;
}

/**
 * The visitor id of tracking.md §3.4. Headless sites pass the uid themselves;
 * private mode hashes IP, user agent and the daily salt and drops the
 * fingerprint; fingerprint mode uses the fingerprint; cookie mode the cookie
 * uid. A hit without a usable id falls back to the next source, and finally
 * to the private-mode hash, so it is still counted.
 */
export async function identify(input: IdentityInput, salt: RotatingSalt): Promise<Identity> {
  const hashed = () => salt.uid(input.ip, input.userAgent);
  if (input.headless && input.uid) return { uid: input.uid, fingerprint: input.privacyLevel === 'private_mode' ? '' : input.fingerprint };
  switch (input.privacyLevel) {
    case 'private_mode':
      return { uid: await hashed(), fingerprint: '' };
    case 'fingerprint':
      return { uid: input.fingerprint || input.uid || (await hashed()), fingerprint: input.fingerprint };
    default:
      return { uid: input.uid || input.fingerprint || (await hashed()), fingerprint: input.fingerprint };
  }
}
