import { DateTime } from 'luxon';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database';

/** Options of the synthetic traffic written straight into the statistics tables. */
export interface TrafficOptions {
  pageviews: number;
  days: number;
  /** Unix time of the end of the generated period (the last hits fall just before it). */
  end: number;
  timezone: string;
  seed?: number;
  /** Sites the sessions are dealt to in turn (default: the default site only); a later call adds to what earlier calls wrote. */
  siteIds?: readonly number[];
  /** Called after each written chunk with the pageviews written so far. */
  progress?(done: number): void;
}

const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Samsung Internet'];
const PLATFORMS = ['Windows', 'macOS', 'iOS', 'Android', 'Linux'];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const COUNTRIES = ['US', 'DE', 'NL', 'GB', 'FR', 'IN', 'BR', 'JP', 'CA', 'ES', 'IT', 'PL'];
const REFERRERS = ['', '', '', 'https://www.google.com/', 'https://www.google.com/', 'https://www.bing.com/', 'https://duckduckgo.com/',
  'https://t.co/', 'https://www.facebook.com/', 'https://news.ycombinator.com/', 'https://www.reddit.com/', 'https://mail.google.com/'];
const CAMPAIGNS = ['', '', '', '', 'utm_source=newsletter&utm_medium=email&utm_campaign=spring', 'utm_source=twitter&utm_medium=social&utm_campaign=launch'];
const CHUNK = 1000;

/** A small deterministic PRNG (mulberry32), so runs are comparable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function insertMany(db: Database, table: string, columns: string[], rows: unknown[][], t?: Transaction): Promise<void> {
  const q = db.quote;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    await db.execute(`INSERT INTO ${q(db.table(table))} (${columns.map(q).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`, chunk.flat(), t);
  }
}

/**
 * Writes realistic synthetic traffic (sessions of 1-8 pageviews over a skewed
 * set of pages, returning visitors, referrers, devices, countries, 404s and
 * goal completions) straight into the kernel's statistics tables.
 */
export async function generateTraffic(db: Database, options: TrafficOptions): Promise<{ pageviews: number; sessions: number }> {
  const rand = random(options.seed ?? 42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const siteIds = options.siteIds ?? [1];
  const last = async (table: string) => Number((await db.select<{ n: number | null }>(`SELECT MAX(${db.quote('ID')}) AS n FROM ${db.quote(db.table(table))}`))[0]?.n ?? 0);
  let sessionId = await last('sessions');
  let statisticId = await last('statistics');
  if ((await last('browsers')) === 0) {
    for (const [table, names] of [['browsers', BROWSERS], ['platforms', PLATFORMS], ['devices', DEVICES]] as const) {
      await insertMany(db, table, ['ID', 'name'], names.map((n, i) => [i + 1, n]));
    }
    await insertMany(db, 'locations', ['city_code', 'country_code', 'continent_code', 'state', 'city'], COUNTRIES.map((c, i) => [-(i + 1), c, '', '', '']));
  }
  const goalIds = new Map<number, number>();
  for (const site of siteIds) {
    const id = (await last('goals')) + 1;
    await insertMany(db, 'goals', ['ID', 'site_id', 'title', 'type', 'status', 'url'], [[id, site, 'Opened pricing', 'visits', 'active', '/pricing'], [id + 1, site, 'Clicked sign-up', 'clicks', 'active', '*']]);
    goalIds.set(site, id);
  }
  const pages = ['/', '/pricing', '/about', '/contact', ...Array.from({ length: 146 }, (_, i) => `/blog/post-${i + 1}`)];
  const pageOf = () => pages[Math.min(pages.length - 1, Math.floor(pages.length * rand() ** 3))]!;
  const start = DateTime.fromSeconds(options.end, { zone: options.timezone }).minus({ days: options.days }).toSeconds();
  const span = options.end - start;
  const visitors = Math.max(1, Math.round(options.pageviews / 5));

  let written = 0;
  while (written < options.pageviews) {
    const sessions: unknown[][] = [];
    const hits: unknown[][] = [];
    const goals: unknown[][] = [];
    while (hits.length < 20 * CHUNK && written + hits.length < options.pageviews) {
      sessionId++;
      const site = siteIds[sessionId % siteIds.length]!;
      const uid = `v${Math.floor(rand() * visitors)}`;
      const length = rand() < 0.45 ? 1 : 2 + Math.floor(rand() * 7);
      const begin = Math.floor(start + rand() * (span - 3600));
      const device = 1 + Math.floor(rand() * DEVICES.length);
      const campaign = pick(CAMPAIGNS);
      let time = begin;
      let url = '';
      for (let i = 0; i < length && written + hits.length < options.pageviews; i++) {
        url = rand() < 0.02 ? `/missing-${Math.floor(rand() * 40)}` : pageOf();
        const type = url.startsWith('/missing') ? '404' : url === '/' ? 'front-page' : url.startsWith('/blog') ? 'post' : 'page';
        statisticId++;
        hits.push([statisticId, site, url, i === 0 ? campaign : '', type, time, uid, Math.floor(rand() * 180), sessionId]);
        if (url === '/pricing' && rand() < 0.2) goals.push([statisticId, goalIds.get(site)!]);
        time += 10 + Math.floor(rand() * 120);
      }
      sessions.push([sessionId, site, uid, begin, time, pick(['example.com', 'example.com', 'shop.example.com']), pick(REFERRERS), -(1 + Math.floor(rand() * COUNTRIES.length)),
        1 + Math.floor(rand() * BROWSERS.length), 1 + Math.floor(rand() * PLATFORMS.length), device, rand() < 0.3 ? 1 : 0, length === 1 ? 1 : 0, url]);
    }
    await db.transaction(async (t) => {
      await insertMany(db, 'sessions', ['ID', 'site_id', 'uid', 'time', 'last_time', 'host', 'referrer', 'city_code', 'browser_id', 'platform_id', 'device_id', 'first_time_visit', 'bounce', 'last_visited_url'], sessions, t);
      await insertMany(db, 'statistics', ['ID', 'site_id', 'page_url', 'parameters', 'page_type', 'time', 'uid', 'time_on_page', 'session_id'], hits, t);
      if (goals.length) await insertMany(db, 'goal_statistics', ['statistic_id', 'goal_id'], goals, t);
    });
    written += hits.length;
    options.progress?.(written);
  }
  return { pageviews: written, sessions: sessionId };
}
