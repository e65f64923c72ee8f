/**
 * The form of a login that look-alike spellings share: compatibility forms
 * folded (full-width `ＡＤＭＩＮ` is `ADMIN`), accents, other combining marks
 * and control characters dropped (`ÁDMİN` is `ADMIN`), then lower case.
 * Rate-limit keys and the check for a taken login use it; signing in
 * compares the login exactly.
 */
export function normaliseLogin(login: string): string {
  return login.trim().normalize('NFKD').replace(/[\p{M}\p{Cc}]/gu, '').toLowerCase();
}

/** Longest login the users table holds. */
const LOGIN_MAX = 60;

/**
 * Whether `login` could name an account at all: not longer than a stored
 * login, no control characters (a NUL byte cannot even reach SQLite inside
 * a statement). Others are looked up nowhere; they simply name nobody.
 */
export function couldBeLogin(login: string): boolean {
  return login.length <= LOGIN_MAX && !/\p{Cc}/u.test(login);
}
