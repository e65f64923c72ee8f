/** Building blocks of realistic demo traffic: pages, agents, sources and visitor plans. */

export const DEMO_PAGES = [
  { path: '/', type: 'front-page', id: 1, weight: 30 },
  { path: '/pricing/', type: 'page', id: 2, weight: 12 },
  { path: '/blog/', type: 'blog-index', id: 3, weight: 10 },
  { path: '/blog/getting-started/', type: 'post', id: 4, weight: 9 },
  { path: '/blog/privacy-first-analytics/', type: 'post', id: 5, weight: 8 },
  { path: '/blog/release-notes/', type: 'post', id: 6, weight: 5 },
  { path: '/docs/', type: 'page', id: 7, weight: 7 },
  { path: '/docs/install/', type: 'page', id: 8, weight: 6 },
  { path: '/shop/', type: 'wc-shop', id: 9, weight: 6 },
  { path: '/product/hoodie/', type: 'product', id: 10, weight: 4 },
  { path: '/contact/', type: 'page', id: 11, weight: 3 },
] as const;

export const DEMO_404S = ['/old-page/', '/wp-login.php', '/blog/2019/missing/', '/pricing-old/'];
export const DEMO_SEARCHES = ['pricing', 'install docker', 'cookie banner', 'export csv', 'goals', 'hoodie size', 'gdpr'];

/** Agents with the viewport class their visitors' trackers send. */
export const DEMO_AGENTS = [
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', weight: 34, screen: 'desktop' },
  { ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', weight: 22, screen: 'mobile' },
  { ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36', weight: 16, screen: 'mobile' },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', weight: 12, screen: 'laptop' },
  { ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', weight: 6, screen: 'desktop' },
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0', weight: 6, screen: 'laptop' },
  { ua: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', weight: 4, screen: 'tablet' },
] as const;

export const DEMO_REFERRERS = [
  { url: '', weight: 40 },
  { url: 'https://www.google.com/', weight: 25 },
  { url: 'https://duckduckgo.com/', weight: 6 },
  { url: 'https://www.bing.com/', weight: 4 },
  { url: 'https://news.ycombinator.com/', weight: 6 },
  { url: 'https://www.reddit.com/r/selfhosted/', weight: 6 },
  { url: 'https://twitter.com/', weight: 4 },
  { url: 'https://www.linkedin.com/', weight: 3 },
  { url: 'https://github.com/', weight: 6 },
] as const;

/** A random integer in [min, max]. */
export function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function weighted<T extends { weight: number }>(random: () => number, items: readonly T[]): T {
  const total = items.reduce((sum, i) => sum + i.weight, 0);
  let n = random() * total;
  for (const item of items) {
    n -= item.weight;
    if (n < 0) return item;
  }
  return items[items.length - 1]!;
}

/** A public IPv4 address (geo lookup gives the visitor a country). */
export function publicIp(random: () => number): string {
  for (;;) {
    const a = between(random, 1, 223);
    if ([10, 100, 127, 169, 172, 192, 198, 203].includes(a)) continue;
    return `${a}.${between(random, 0, 255)}.${between(random, 0, 255)}.${between(random, 1, 254)}`;
  }
}

/** mulberry32: a small seeded generator, so a demo run can be repeated. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
