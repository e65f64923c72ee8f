/** Query parameters whose values are secrets and never reach the logs. */
const SECRET_PARAMS = ['svc_share_token', 'svc_nonce', '_svc_nonce', 'nonce', 'token'];

/** The request URL for logs, with secret query values replaced by `***`. */
export function logUrl(originalUrl: string): string {
  const q = originalUrl.indexOf('?');
  if (q === -1) return originalUrl;
  const params = new URLSearchParams(originalUrl.slice(q + 1));
  let changed = false;
  for (const name of SECRET_PARAMS) {
    if (params.has(name)) {
      params.set(name, '***');
      changed = true;
    }
  }
  return changed ? `${originalUrl.slice(0, q)}?${params.toString()}` : originalUrl;
}
