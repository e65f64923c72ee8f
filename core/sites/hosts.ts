/**
 * Hosts as sites store and match them: lower case, without port, trailing dot
 * or a leading `www.` (`www.example.com` and `example.com` are one host).
 */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  h = h.replace(/:\d*$/, '').replace(/\.$/, '');
  return h.startsWith('www.') ? h.slice(4) : h;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Whether a normalized host is a domain name (letters, digits, hyphens; dot-separated labels) or `localhost`. */
export function isDomainName(host: string): boolean {
  if (host.length === 0 || host.length > 190) return false;
  return host.split('.').every((label) => LABEL.test(label));
}
