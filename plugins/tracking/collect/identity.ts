import type { PrivacyLevel } from '../settings/tracking-settings';
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

/** The id the client gave that the mode uses, or '' when the private-mode hash is the uid. */
function givenId(input: IdentityInput): string {
  if (input.headless && input.uid) return input.uid;
  switch (input.privacyLevel) {
    case 'private_mode':
      return '';
    case 'fingerprint':
      return input.fingerprint || input.uid;
    default:
      return input.uid || input.fingerprint;
  }
}

/**
 * The visitor id of tracking.md §3.4. Headless sites pass the uid themselves;
 * private mode hashes IP, user agent and the daily salt and drops the
 * fingerprint; fingerprint mode uses the fingerprint; cookie mode the cookie
 * uid. A hit without a usable id falls back to the next source, and finally
 * to the private-mode hash, so it is still counted. A promise only when the
 * hash needs today's salt and it is not in memory yet.
 */
export function identify(input: IdentityInput, salt: RotatingSalt): Identity | Promise<Identity> {
  const fingerprint = input.privacyLevel === 'private_mode' ? '' : input.fingerprint;
  const given = givenId(input);
  if (given) return { uid: given, fingerprint };
  const uid = salt.uidNow(input.ip, input.userAgent);
  if (uid !== null) return { uid, fingerprint };
  return salt.uid(input.ip, input.userAgent).then((hashed) => ({ uid: hashed, fingerprint }));
}
