import { DateTime } from 'luxon';
import type { Database } from '../../db/database';

/** The hand-built traffic set of the statistics tests (README of this folder lists the expected figures). */
export const TZ = 'Europe/Amsterdam';
/** "Now" for the tests: 2026-01-20 13:00 in Amsterdam. */
export const NOW = '2026-01-20T12:00:00Z';

export const at = (local: string) => DateTime.fromISO(local, { zone: TZ }).toSeconds();

interface PageSpec {
  url: string;
  type?: string;
  /** Minutes after the session start. */
  after?: number;
  top: number;
  goal?: number;
}

interface SessionSpec {
  uid: string;
  start: string;
  firstTime: 0 | 1;
  bounce: 0 | 1;
  device: string;
  browser: string;
  platform: string;
  city: number;
  referrer: string;
  host?: string;
  pages: PageSpec[];
}

const LOCATIONS = [
  { city_code: -1, country_code: 'NL', continent_code: 'EU', state: '', city: '' },
  { city_code: -2, country_code: 'DE', continent_code: 'EU', state: '', city: '' },
  { city_code: -3, country_code: 'US', continent_code: 'NA', state: '', city: '' },
  { city_code: 2759794, country_code: 'NL', continent_code: 'EU', state: 'North Holland', city: 'Amsterdam' },
];

const desktop = { device: 'desktop', browser: 'Chrome', platform: 'Windows' };
const mobile = { device: 'mobile', browser: 'Safari', platform: 'iOS' };
const google = 'https://www.google.com/';

/** S1..S10 of the figures: current range 2026-01-12..14, previous 2026-01-09..11. */
export const SESSIONS: SessionSpec[] = [
  { uid: 'A', start: '2026-01-12T10:00', firstTime: 0, bounce: 0, ...desktop, city: -1, referrer: google, pages: [
    { url: '/', type: 'front-page', top: 30 }, { url: '/pricing', after: 1, top: 60 }, { url: '/blog/post-1', type: 'post', after: 3, top: 0 }] },
  { uid: 'B', start: '2026-01-12T23:30', firstTime: 1, bounce: 1, ...mobile, city: -2, referrer: '', pages: [{ url: '/blog/post-1', type: 'post', top: 20 }] },
  { uid: 'B', start: '2026-01-13T00:30', firstTime: 0, bounce: 0, ...mobile, city: -2, referrer: 'https://t.co/', host: 'shop.example.com', pages: [
    { url: '/', type: 'front-page', top: 10 }, { url: '/pricing', after: 2, top: 50 }] },
  { uid: 'C', start: '2026-01-13T15:00', firstTime: 1, bounce: 1, device: 'desktop', browser: 'Firefox', platform: 'Linux', city: 2759794, referrer: google, pages: [
    { url: '/pricing', top: 40, goal: 1 }] },
  { uid: 'A', start: '2026-01-14T09:00', firstTime: 0, bounce: 0, ...desktop, city: -1, referrer: '', pages: [
    { url: '/', type: 'front-page', top: 15 }, { url: '/missing', type: '404', after: 1, top: 0 }, { url: '/pricing', after: 2, top: 25, goal: 1 }] },
  { uid: 'D', start: '2026-01-14T11:00', firstTime: 1, bounce: 1, device: 'tablet', browser: 'Chrome', platform: 'Android', city: -3, referrer: 'https://www.bing.com/', pages: [
    { url: '/old-link', type: '404', top: 0 }] },
  { uid: 'E', start: '2026-01-10T12:00', firstTime: 1, bounce: 1, ...desktop, city: -1, referrer: google, pages: [{ url: '/', type: 'front-page', top: 100 }] },
  { uid: 'A', start: '2026-01-11T12:00', firstTime: 1, bounce: 0, ...desktop, city: -1, referrer: google, pages: [
    { url: '/', type: 'front-page', top: 20 }, { url: '/blog/post-1', type: 'post', after: 5, top: 40 }] },
  { uid: 'F', start: '2026-01-15T00:10', firstTime: 1, bounce: 1, ...desktop, city: -1, referrer: '', pages: [{ url: '/', type: 'front-page', top: 5 }] },
  { uid: 'G', start: '2026-01-11T23:50', firstTime: 1, bounce: 1, ...desktop, city: -1, referrer: '', pages: [{ url: '/pricing', top: 0 }] },
];

async function lookup(db: Database, table: string, name: string): Promise<number> {
  const q = db.quote(db.table(table));
  const [row] = await db.select<{ ID: number }>(`SELECT ID FROM ${q} WHERE name = ?`, [name]);
  if (row) return Number(row.ID);
  return (await db.insert(`INSERT INTO ${q} (name) VALUES (?)`, [name])).id;
}

/** Inserts one pageview (and its goal completion) into an existing session; returns its id. */
export async function insertPageview(db: Database, sessionId: number, uid: string, time: number, page: PageSpec): Promise<number> {
  const { id } = await db.insert(
    `INSERT INTO ${db.quote(db.table('statistics'))} (page_url, parameters, fragment, page_id, page_type, time, uid, time_on_page, session_id) VALUES (?, '', '', 0, ?, ?, ?, ?, ?)`,
    [page.url, page.type ?? 'page', time, uid, page.top, sessionId],
  );
  if (page.goal) {
    await db.execute(`INSERT INTO ${db.quote(db.table('goal_statistics'))} (statistic_id, goal_id) VALUES (?, ?)`, [id, page.goal]);
  }
  return id;
}

/** A bare desktop session without lookups, for hits added by a test. */
export async function insertSession(db: Database, uid: string, time: number): Promise<number> {
  return (
    await db.insert(
      `INSERT INTO ${db.quote(db.table('sessions'))} (uid, time, last_time, referrer, city_code, first_time_visit, bounce) VALUES (?, ?, ?, '', -1, 0, 1)`,
      [uid, time, time],
    )
  ).id;
}

/** Writes the traffic set straight into the kernel's statistics tables; returns the session ids in order. */
export async function loadTraffic(db: Database): Promise<number[]> {
  const q = (t: string) => db.quote(db.table(t));
  for (const loc of LOCATIONS) {
    await db.execute(`INSERT INTO ${q('locations')} (city_code, country_code, continent_code, state, city) VALUES (?, ?, ?, ?, ?)`, Object.values(loc));
  }
  await db.execute(`INSERT INTO ${q('goals')} (ID, title, type, status, url) VALUES (1, ?, 'visits', 'active', '/pricing')`, ['Saw <b>pricing</b>']);
  await db.execute(`INSERT INTO ${q('goals')} (ID, title, type, status, url) VALUES (2, 'Newsletter', 'clicks', 'active', '*')`);
  const ids: number[] = [];
  for (const s of SESSIONS) {
    const start = at(s.start);
    const pages = s.pages.map((p) => ({ ...p, time: start + (p.after ?? 0) * 60 }));
    const { id } = await db.insert(
      `INSERT INTO ${q('sessions')} (uid, time, last_time, first_visited_url, last_visited_url, host, referrer, goal_id, city_code, browser_id, browser_version_id, platform_id, device_id, first_time_visit, bounce) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 0, ?, ?, ?, ?)`,
      [
        s.uid, start, pages[pages.length - 1]!.time, pages[0]!.url, pages[pages.length - 1]!.url, s.host ?? 'example.com', s.referrer, s.city,
        await lookup(db, 'browsers', s.browser), await lookup(db, 'platforms', s.platform), await lookup(db, 'devices', s.device), s.firstTime, s.bounce,
      ],
    );
    for (const p of pages) await insertPageview(db, id, s.uid, p.time, p);
    ids.push(id);
  }
  return ids;
}
