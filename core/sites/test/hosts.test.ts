import { isDomainName, normalizeHost } from '../hosts';

describe('site hosts', () => {
  it('compares hosts in lower case, without port, trailing dot or www.', () => {
    expect(normalizeHost(' WWW.Example.COM:8443 ')).toBe('example.com');
    expect(normalizeHost('example.com.')).toBe('example.com');
    expect(normalizeHost('shop.example.com')).toBe('shop.example.com');
    expect(normalizeHost('[::1]:8080')).toBe('[::1]');
    expect(normalizeHost('localhost:3000')).toBe('localhost');
  });

  it('accepts domain names and refuses anything else', () => {
    for (const ok of ['example.com', 'localhost', 'a-b.example', 'xn--bcher-kva.example', '127.0.0.1']) expect(isDomainName(ok)).toBe(true);
    for (const bad of ['', 'bad host', '-a.example', 'a-.example', 'a..example', 'exa_mple.com', 'https://example.com', `${'a'.repeat(64)}.example`]) {
      expect(isDomainName(bad)).toBe(false);
    }
  });
});
