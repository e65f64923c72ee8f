/**
 * The tracking traffic model: 5,000 visitors in cookie mode, each with its
 * own IP and browser, opening pages (with a referrer now and then) and
 * sending heartbeats for the page they are on, at concurrency 50. A visitor
 * sends one hit at a time, as a browser does.
 */

export const CONNECTIONS = 50;
export const VISITORS = 5_000;
/** Share of hits that are heartbeats once visitors have a page open. */
export const HEARTBEAT_SHARE = 0.45;
/** Sites of the many-sites runs: visitor i browses site (i mod SITES) + 1 at `site<n>.example`. */
export const SITES = 50;

const PAGES = ['/', '/pricing/', '/blog/', '/blog/first-post/', '/blog/second-post/', '/docs/', '/docs/install/', '/contact/', '/shop/', '/shop/cart/'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
];
const REFERRERS = ['', '', '', 'https://www.google.com/', 'https://news.ycombinator.com/', 'https://duckduckgo.com/'];

export type Transport = 'rest' | 'beacon';

export interface Visitor {
  uid: string;
  ip: string;
  agent: string;
  host: string;
  /** URL of the last accepted page view; heartbeats go there. */
  url: string | null;
  busy: boolean;
}

/** What the server answered 200 to. */
export interface Load {
  pageviews: number;
  heartbeats: number;
  heartbeatSeconds: number;
  errors: number;
}

/** One hit of the model: its payload and what it stands for. */
export interface Hit {
  visitor: Visitor;
  kind: 'pageview' | 'heartbeat';
  url: string;
  seconds: number;
  payload: Record<string, unknown>;
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

/** The host of site `n` (1-based) when the traffic spans `sites` sites; one site keeps `site.example`. */
export const siteHost = (n: number, sites: number) => (sites === 1 ? 'site.example' : `site${n}.example`);

/** The visitors and the next hit to send; heartbeats go to visitors who have a page open. */
export class Traffic {
  readonly people: Visitor[];
  private readonly open: Visitor[] = [];

  /** `sites`: how many sites the visitors are spread over (by host; no snippet field). */
  constructor(sites = 1) {
    this.people = Array.from({ length: VISITORS }, (_, i) => ({
      uid: `v${i.toString(36).padStart(6, '0')}`,
      host: siteHost(1 + (i % sites), sites),
      ip: `${20 + (i % 180)}.${(i * 7) % 250}.${(i * 13) % 250}.${1 + (i % 250)}`,
      agent: AGENTS[i % AGENTS.length]!,
      url: null,
      busy: false,
    }));
  }

  next(): Hit {
    if (Math.random() < HEARTBEAT_SHARE && this.open.length > 0) {
      for (let tries = 0; tries < 20; tries++) {
        const visitor = pick(this.open);
        if (visitor.busy) continue;
        const seconds = 5 + Math.floor(Math.random() * 20);
        visitor.busy = true;
        const url = visitor.url!;
        return { visitor, kind: 'heartbeat', url, seconds, payload: { url, uid: visitor.uid, fingerprint: false, user_agent: '', time_on_page: seconds } };
      }
    }
    let visitor = pick(this.people);
    for (let tries = 0; visitor.busy && tries < 20; tries++) visitor = pick(this.people);
    visitor.busy = true;
    const url = `https://${visitor.host}${pick(PAGES)}`;
    const payload = { url, uid: visitor.uid, fingerprint: false, user_agent: visitor.agent, referrer_url: pick(REFERRERS), time_on_page: 0, completed_goals: [], page_id: 0, page_type: 'page' };
    return { visitor, kind: 'pageview', url, seconds: 0, payload };
  }

  /** Notes the answer: an accepted page view becomes the visitor's open page. */
  answered(hit: Hit, accepted: boolean, load: Load): void {
    hit.visitor.busy = false;
    if (!accepted) {
      load.errors++;
      return;
    }
    if (hit.kind === 'heartbeat') {
      load.heartbeats++;
      load.heartbeatSeconds += hit.seconds;
      return;
    }
    load.pageviews++;
    if (hit.visitor.url === null) this.open.push(hit.visitor);
    hit.visitor.url = hit.url;
  }
}
