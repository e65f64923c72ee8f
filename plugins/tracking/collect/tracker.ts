import type { IncomingHttpHeaders } from 'node:http';
import { type Clock, DEFAULT_SITE_ID, type Hooks, type PluginContext, type Principal, runSoon, type Soon, type SoonSteps, soonThen, type SvcLogger, type Transients } from '../../../core';
import type { SvcHitType, SvcSanitizedHit, SvcStatistic } from '../../../hooks';
import type { Goal } from '../goals/goal';
import type { GoalStore } from '../goals/goal-store';
import { completedGoals } from '../goals/matcher';
import type { DomainWatch } from './domains';
import { BlocklistCache, type DropOutcome, isReferrerSpam, matchingRule, sendsDoNotTrack } from './exclusions';
import type { HitWriter, NewSession, WritePlan, WriteResult } from './hit-writer';
import { type Identity, identify } from './identity';
import { resolveVisitorIp } from './ip';
import { KeyedLock } from './keyed-lock';
import { LOOKUP_ITEMS, type LookupIds } from './lookups';
import { type HitPayload, sanitisePayload, sanitizedHit, screenClass } from './payload';
import type { RotatingSalt } from './rotating-salt';
import type { SiteOfHit } from './site-of-hit';
import { hostOf, parseHttpUrl } from './text';
import type { DropLog } from './drop-log';
import type { HitHeaders } from './hit-headers';
import type { TrackingConfig, TrackingConfigCache } from './tracking-config';
import type { AgentParser, ParsedAgent } from './user-agent';
import type { VisitorState, VisitorStates } from './visitor-state';

/** Session and previous-hit window (tracking.md §8). */
export const WINDOW_SECONDS = 30 * 60;

/** Who sent the hit, as the transports see it. */
export interface HitRequest {
  headers: IncomingHttpHeaders;
  remoteAddress: string | undefined;
  principal: Principal;
}

/** Why steps 3-4 drop a hit, with details for the debug log. */
interface Exclusion {
  outcome: DropOutcome;
  extra?: Record<string, unknown>;
}

/** A hit that passed steps 1-4, ready to record. */
interface Prepared {
  siteId: number;
  hit: SvcSanitizedHit;
  cfg: TrackingConfig;
  /** Session fields outside the documented hit (tracking.md §6). */
  session: Pick<NewSession, 'screen' | 'platform_version_id'>;
  headers: IncomingHttpHeaders;
}

export type TrackResult =
  | { recorded: true; hitType: SvcHitType; statisticId: number; sessionId: number; uid: string }
  | { recorded: false; outcome: DropOutcome };

export interface TrackerDeps {
  config: TrackingConfigCache;
  hooks: Hooks;
  clock: Clock;
  logger: SvcLogger;
  debug: boolean;
  transients: Transients;
  agents: AgentParser;
  lookups: LookupIds;
  salt: RotatingSalt;
  states: VisitorStates;
  writer: HitWriter;
  goals: GoalStore;
  domains: DomainWatch;
  drops: DropLog;
  sites: SiteOfHit;
  hitHeaders: HitHeaders;
  /** ctx.http.clientAddress: the address through trusted proxies, null without SVC_TRUST_PROXY. */
  clientAddress: PluginContext['http']['clientAddress'];
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const v = headers[name];
  return typeof v === 'string' ? v : '';
};

/**
 * The collection pipeline of tracking.md §3.3, shared by both transports and
 * `svc demo`. A visitor's hits run one after another on this node; reads and
 * writes of concurrent hits are batched (see VisitorStates, HitWriter).
 */
export class Tracker {
  private readonly locks = new KeyedLock();
  private readonly blocklists = new BlocklistCache();
  private inFlight = 0;
  private readonly idle: Array<() => void> = [];

  constructor(private readonly d: TrackerDeps) {}

  /**
   * Processes one decoded payload: the result at once when nothing had to
   * wait (a dropped hit), else a promise of it. Throws (or rejects with) a
   * 400 SvcError for a payload whose page URL is unusable; every other
   * problem drops or cleans the field. `time` overrides the clock (demo
   * traffic).
   */
  track(payload: Record<string, unknown>, request: HitRequest, time = this.d.clock.unix()): Soon<TrackResult> {
    this.inFlight++;
    return runSoon(this.process(payload, request, time));
  }

  /** Resolves when every hit under way has finished (the kernel waits for it before closing the database). */
  async settled(): Promise<void> {
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private finished(): void {
    if (--this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** The whole pipeline; steps 5-10 run once the visitor's earlier hits on this node are written. */
  private *process(payload: Record<string, unknown>, request: HitRequest, time: number): SoonSteps<TrackResult> {
    try {
      // A run of its own: nothing of the request outlives it while the hit waits for the database.
      const prepared = (yield runSoon(this.prepare(payload, request, time))) as Prepared | TrackResult;
      if ('recorded' in prepared) return prepared;
      const release = (yield this.locks.acquire(prepared.hit.uid)) as () => void;
      try {
        return (yield runSoon(this.record(prepared))) as TrackResult;
      } finally {
        release();
      }
    } finally {
      this.finished();
    }
  }

  /** Steps 1-4 of §3.3 and the visitor's identity: the hit to record, or why it is dropped. */
  private *prepare(payload: Record<string, unknown>, request: HitRequest, time: number): SoonSteps<Prepared | TrackResult> {
    // The site: named by the snippet, else the one the page host belongs to. Its settings apply
    // (the default site's to a hit of no site, dropped below).
    const page = parseHttpUrl(payload.url);
    const siteId = (yield this.d.sites.of(payload.site, page?.host.toLowerCase() ?? '')) as number | null;
    const settingsOf = siteId ?? DEFAULT_SITE_ID;
    const cfg = this.d.config.current(settingsOf) ?? ((yield this.d.config.get(settingsOf)) as TrackingConfig);

    // 1. IP block (the site's blocklist), before anything is sanitised.
    const ip = (yield this.visitorIp(request)) as string;
    if (((yield this.ipBlocked(ip, cfg)) as boolean) && !((yield this.isTestHit(payload.url)) as boolean)) {
      return this.drop('ip blocked', payload, siteId);
    }

    // 2. Sanitise and parse the user agent.
    const hit = sanitisePayload(payload, page);
    if (siteId === null) return this.drop('unknown site', hit, null);
    const agent = this.d.agents.parse(hit.user_agent);
    if (agent.bot) return this.drop('bot', hit, siteId);

    // 3. Custom block rules and the visitor's own choices; 4. referrer spam.
    const excluded = (yield this.excluded(request, hit, cfg)) as Exclusion | null;
    if (excluded) return this.drop(excluded.outcome, hit, siteId, excluded.extra);

    const identity = { privacyLevel: cfg.privacyLevel, headless: cfg.headless, uid: hit.uid, fingerprint: hit.fingerprint, ip, userAgent: header(request.headers, 'user-agent') || hit.user_agent };
    const { uid, fingerprint } = (yield identify(identity, this.d.salt)) as Identity;
    const [browser_id = 0, browser_version_id = 0, platform_id = 0, device_id = 0, platform_version_id = 0] = (yield this.lookupIds(agent)) as number[];
    const sanitized = sanitizedHit(hit, { uid, fingerprint, ip, time, browser_id, browser_version_id, platform_id, device_id });
    // Session fields outside the documented hit (tracking.md §6): kept off the hooks' payload.
    return { siteId, hit: sanitized, cfg, session: { screen: screenClass(payload.screen), platform_version_id }, headers: request.headers };
  }

  /** Steps 5-10 for one visitor of a site, with the visitor's previous hits already written. */
  private *record({ siteId, hit: input, cfg, session, headers }: Prepared): SoonSteps<TrackResult> {
    const { hooks } = this.d;
    const state = (yield this.d.states.load(siteId, input.uid)) as VisitorState;
    const open = state.session !== null && state.session.lastTime >= input.time - WINDOW_SECONDS;
    const previous = open ? state.last : null;
    const heartbeat = input.browser_id === 0 && input.browser_version_id === 0 && input.platform_id === 0 && input.device_id === 0;

    // 5. Hit type (§3.1).
    if (heartbeat && !previous) return { recorded: false, outcome: '' };
    const hitType: SvcHitType = heartbeat ? 'update' : 'create';

    // 6. Filter; location enrichment is one of its taps.
    const passed = sanitizedHit(input, input);
    this.d.hitHeaders.set(passed, headers);
    const filtered = (yield hooks.applyFiltersSoon('svc_before_track_hit', passed, hitType, previous ?? {})) as unknown;
    // Taps may change the hit in place or return another object; never its visitor or time.
    const hit: SvcSanitizedHit = filtered === passed ? passed : filtered && typeof filtered === 'object' ? { ...input, ...filtered } : input;
    hit.uid = input.uid;
    hit.time = input.time;
    const goals = completedGoals(this.d.goals.activeNow(siteId) ?? ((yield this.d.goals.activeGoals(siteId)) as readonly Goal[]), hit, hitType === 'create');

    let plan: WritePlan;
    let statistic: SvcStatistic | null = null;
    if (hitType === 'update') {
      // 8. Time on page accumulates only on the same URL.
      if (previous!.page_url !== hit.path || previous!.parameters !== hit.parameters) return { recorded: false, outcome: '' };
      plan = { kind: 'update', statisticId: previous!.ID!, sessionId: previous!.session_id, seconds: hit.time_on_page, time: hit.time, goals };
    } else {
      // 7. Session created or updated, 8. pageview row.
      statistic = {
        page_url: hit.path,
        parameters: hit.parameters,
        fragment: hit.fragment,
        page_id: hit.page_id,
        page_type: hit.page_type,
        time: hit.time,
        uid: hit.uid,
        time_on_page: hit.time_on_page,
        session_id: previous ? previous.session_id : 0,
      };
      if (hooks.hasAction('svc_before_create_statistic')) yield hooks.doActionSoon('svc_before_create_statistic', { ...statistic });
      plan = {
        kind: 'create',
        siteId,
        statistic,
        goals,
        session: previous
          ? { id: previous.session_id, lastVisitedUrl: hit.path }
          : {
              uid: hit.uid,
              time: hit.time,
              first_visited_url: hit.path,
              last_visited_url: hit.path,
              host: cfg.filteringByDomain ? hit.host : '',
              referrer: hit.referrer,
              goal_id: goals[0] ?? 0,
              city_code: Number.isSafeInteger(hit.city_code) ? hit.city_code! : 0,
              browser_id: hit.browser_id,
              browser_version_id: hit.browser_version_id,
              platform_id: hit.platform_id,
              platform_version_id: session.platform_version_id,
              device_id: hit.device_id,
              screen: session.screen,
              first_time_visit: state.session === null ? 1 : 0,
            },
      };
    }
    const written = (yield this.d.writer.write(plan)) as WriteResult;
    if (statistic) {
      const after: SvcStatistic = { ID: written.statisticId, ...statistic };
      after.session_id = written.sessionId;
      if (hit.search_term) after.search_term = hit.search_term;
      if (siteId !== DEFAULT_SITE_ID) after.site_id = siteId;
      yield hooks.doActionSoon('svc_after_create_statistic', written.statisticId, after);
      if (!this.d.domains.known(hit.host)) yield this.d.domains.observe(hit.host);
    }
    // 10. Outbound link, fired for every recorded hit.
    yield hooks.doActionSoon('svc_track_external_link', written.statisticId, hit.external_link_url);
    return { recorded: true, hitType, statisticId: written.statisticId, sessionId: written.sessionId, uid: hit.uid };
  }

  /**
   * The exclusions of a hit without recording anything (search capture uses
   * the same rules): IP block, bots, custom rules, Do Not Track, excluded
   * roles and referrer spam, with the settings of `siteId` (else of the site
   * of the page's host). Null when the request may be counted.
   */
  async screen(request: HitRequest, fields: Pick<HitPayload, 'url' | 'parameters' | 'referrer' | 'user_agent'>, siteId: number | null = null): Promise<DropOutcome | null> {
    const cfg = await this.d.config.get(siteId ?? (await this.d.sites.of(undefined, hostOf(fields.url))) ?? DEFAULT_SITE_ID);
    if (await this.ipBlocked(await this.visitorIp(request), cfg)) return 'ip blocked';
    const userAgent = fields.user_agent || header(request.headers, 'user-agent');
    if (this.d.agents.parse(userAgent).bot) return 'bot';
    return (await this.excluded(request, { ...fields, user_agent: userAgent }, cfg))?.outcome ?? null;
  }

  /** The resolved address through `svc_visitor_ip` (at once when nothing taps it). */
  private visitorIp(request: HitRequest): Soon<string> {
    const ip = resolveVisitorIp(request.headers, request.remoteAddress, this.d.clientAddress(request.headers, request.remoteAddress));
    return soonThen(this.d.hooks.applyFiltersSoon('svc_visitor_ip', ip), (filtered) => (typeof filtered === 'string' ? filtered : ''));
  }

  /** The blocklist setting plus `svc_ip_blocklist` (at once when nothing taps it). */
  private ipBlocked(ip: string, cfg: TrackingConfig): Soon<boolean> {
    if (!this.d.hooks.hasFilter('svc_ip_blocklist')) return this.blocklists.get(cfg.ipBlocklist).matches(ip);
    return soonThen(this.d.hooks.applyFiltersSoon('svc_ip_blocklist', [...cfg.ipBlocklist]), (list) =>
      this.blocklists.get(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []).matches(ip),
    );
  }

  /** Steps 3-4; waits only for a signed-in visitor's role check. */
  private excluded(request: HitRequest, hit: Pick<HitPayload, 'url' | 'parameters' | 'referrer' | 'user_agent'>, cfg: TrackingConfig): Soon<Exclusion | null> {
    const rule = matchingRule(cfg.blockRules, [hit.url + (hit.parameters ? `?${hit.parameters}` : ''), hit.referrer, hit.user_agent]);
    if (rule) return { outcome: 'blocked by custom rule', extra: { rule: rule.source } };
    if (cfg.doNotTrack && sendsDoNotTrack(request.headers)) return { outcome: 'do not track' };
    const spam = () => (hit.referrer && isReferrerSpam(hit.referrer) ? ({ outcome: 'referrer is spam' } as const) : null);
    const user = request.principal.user;
    if (!user) return spam();
    return soonThen(this.d.hooks.applyFiltersSoon('svc_roles_excluded_from_tracking', [...cfg.roleBlocklist]), (roles) =>
      Array.isArray(roles) && roles.includes(user.role) ? { outcome: 'excluded role' } : spam(),
    );
  }

  /** Ids of the user agent's lookup rows, at once when they are all in memory. */
  private lookupIds(agent: ParsedAgent): Soon<number[]> {
    const names = [agent.browser, agent.browser && agent.browserVersion ? `${agent.browser} ${agent.browserVersion}` : '', agent.platform, agent.device, agent.platformVersion ? `${agent.platform} ${agent.platformVersion}` : ''];
    const known = LOOKUP_ITEMS.map((item, i) => this.d.lookups.known(item, names[i]!));
    if (known.every((id) => id !== undefined)) return known as number[];
    return Promise.all(LOOKUP_ITEMS.map((item, i) => this.d.lookups.id(item, names[i]!)));
  }

  /** The onboarding test hit bypasses the IP block with a nonce equal to `svc_onboarding_token` (§5 rule 2). */
  private async isTestHit(url: unknown): Promise<boolean> {
    if (typeof url !== 'string' || !url.includes('svc_test_hit')) return false;
    let nonce: string | null;
    try {
      nonce = new URL(url).searchParams.get('nonce');
    } catch {
      return false;
    }
    if (!nonce) return false;
    const token = await this.d.transients.get<string>('svc_onboarding_token');
    return typeof token === 'string' && token !== '' && token === nonce;
  }

  /** Notes a dropped hit in the list of its site (none for a hit of no known site). */
  private drop(outcome: DropOutcome, hit: HitPayload | Record<string, unknown>, siteId: number | null, extra: Record<string, unknown> = {}): TrackResult {
    this.d.drops.note(outcome, typeof hit.url === 'string' ? hit.url : '', siteId);
    if (this.d.debug) this.d.logger.info({ outcome, url: typeof hit.url === 'string' ? hit.url.slice(0, 300) : '', ...extra }, `hit dropped: ${outcome}`);
    return { recorded: false, outcome };
  }
}
