import { cookieUid } from './cookie';
import { goalApplies, pageIdentity } from './page';
import { screenClass } from './screen';
import { send } from './send';
import { markActive, startClock, takeSeconds } from './time';
import type { SvcGlobal } from './types';

const BOT = /bot\b|crawl|spider|headless/i;

/** `fn` with its failures kept inside the tracker. */
const safe =
  <A extends unknown[]>(fn: (...args: A) => unknown) =>
  (...args: A): void => {
    try {
      fn(...args);
    } catch {
      // a tracker failure never reaches the page
    }
  };

/** Adds a listener whose failures stay inside the tracker. */
const on = (target: EventTarget, type: string, handler: (event: Event) => unknown, capture?: boolean): void =>
  target.addEventListener(type, safe(handler), capture);

/**
 * The tracker of tracking.md: a page view with the full §2.1 payload, update
 * hits with the time on page (and completed goals, outbound clicks) when the
 * page is hidden or left, single-page navigation, consent. `identify` (the
 * cookieless script's) fills `svc.cache.fingerprint` before the first hit.
 */
function start(svc: SvcGlobal, identify?: (svc: SvcGlobal) => Promise<void>): void {
  const { options, cache, tracking, goals } = svc;
  const ua = navigator.userAgent;
  if (BOT.test(ua) || (options.do_not_track && (navigator.doNotTrack === '1' || navigator.globalPrivacyControl))) return;

  const cookieMode = options.privacy_level === 'cookie';
  let held = window.svc_consent === 'hold';
  /** Sets `useCookies`, and the uid (from the cookie) when cookies are used. */
  const cookies = (allowed: boolean) => {
    cache.useCookies = allowed && cookieMode && navigator.cookieEnabled;
    cache.uid = cache.useCookies ? cookieUid(options.cookie_retention_days) : null;
  };
  cookies(!held && window.svc_consent !== 'cookieless');
  /** URL of the page view that updates belong to ('' before the first). */
  let lastUrl = '';
  let ready = false;
  let goalsLoaded = false;
  let sentGoals = 0;
  /** Hits leave in order, each after the previous answered; the ids are read as a hit leaves. */
  let pending = Promise.resolve(identify?.(svc));
  /** The snippet's site, sent with every hit when it is not the default site. */
  const site = svc.site ? { site: svc.site } : {};
  const queue = (fields: object) => {
    pending = pending.then(() => send(svc, { ...fields, uid: cache.uid, fingerprint: cache.fingerprint, ...site }));
  };
  /** The seconds and the goals completed since the previous hit. */
  const since = () => ({ time_on_page: takeSeconds(), completed_goals: goals.completed.slice(sentGoals, (sentGoals = goals.completed.length)) });

  const track = (referrer: string) => {
    tracking.isInitialHit = false;
    lastUrl = location.href;
    const page = pageIdentity(svc);
    queue({
      url: lastUrl,
      referrer_url: referrer,
      user_agent: ua,
      ...since(),
      ...page,
      search_term: new URLSearchParams(location.search).get('s') || '',
      should_load_ecommerce: !!options.should_load_ecommerce,
      screen: screenClass(),
    });
    if (!goalsLoaded && goals.active.some((goal) => goalApplies(goal, page.page_id))) {
      goalsLoaded = true;
      const script = document.createElement('script');
      script.src = goals.scriptUrl;
      document.head.append(script);
    }
  };

  /** An update of the current page view: no user agent, the seconds since the last hit, new goals, `extra` fields. */
  const update = (extra?: object) => {
    if (!lastUrl) return;
    const fields = since();
    if (fields.time_on_page || fields.completed_goals.length || extra) queue({ url: lastUrl, ...fields, ...extra });
  };
  const go = () => {
    ready = true;
    if (!held) track(document.referrer);
  };

  startClock();
  const left = () => update();
  on(document, 'visibilitychange', () => (document.hidden ? left() : markActive()));
  on(window, 'pagehide', left);
  on(document, 'svc_update_hit', left);
  on(document, 'svc_enable_cookies', () => {
    cookies(true);
    if (held && ready) track(document.referrer);
    held = false;
  });
  if (options.track_url_change) {
    const changed = safe(() => {
      const previous = lastUrl;
      if (previous && location.href.split('#')[0] !== previous.split('#')[0]) {
        update();
        track(previous);
      }
    });
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
        original.apply(this, args);
        changed();
      };
    }
    on(window, 'popstate', changed);
  }
  if (options.track_external_links) {
    on(
      document,
      'click',
      (event) => {
        const link = (event.target as Element).closest?.('a');
        // The server keeps http(s) URLs only; other schemes (mailto:) just send the time so far.
        if (link && link.host !== location.host) update({ external_link_url: link.href });
      },
      true,
    );
  }

  const turbo = options.enable_turbo_mode;
  if (turbo ? document.readyState === 'complete' : document.body) go();
  else on(window, turbo ? 'load' : 'DOMContentLoaded', go);
}

/** Starts the tracker when the `svc` options are on the page; nothing it does can break the page. */
export function runTracker(identify?: (svc: SvcGlobal) => Promise<void>): void {
  try {
    const svc = window.svc;
    if (svc) start(svc, identify);
  } catch {
    // a tracker failure never reaches the page
  }
}
