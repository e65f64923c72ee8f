/**
 * The visitor's uid from the first-party cookie `svc_uid` (32 hex
 * characters), created when missing; each visit renews the retention.
 */
export function cookieUid(days: number): string {
  const uid =
    /\bsvc_uid=(\w{32})/.exec(document.cookie)?.[1] ??
    [...crypto.getRandomValues(new Uint8Array(16))].map((b) => (b + 256).toString(16).slice(1)).join('');
  document.cookie = `svc_uid=${uid};path=/;max-age=${days * 86_400};SameSite=Lax${location.protocol === 'https:' ? ';Secure' : ''}`;
  return uid;
}
