import { UniqueConstraintError } from 'sequelize';
import type { Capability, SvcUser } from '../auth/types';
import type { Users } from '../auth/users';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { insertIfAbsent } from '../db/sql';
import { SvcError, badRequest, forbidden } from '../errors';
import { requestContext } from '../http/request-context';
import { normalizeHost } from './hosts';
import { type Soon, soonThen } from '../soon';
import { siteRoleHas } from './site-access';
import { deleteSiteRows } from './site-data';
import { checkedSite, hostsOf } from './site-input';
import { SiteRoles } from './site-roles';
import { DEFAULT_SITE_ID, type Site, type SiteInput, type SiteRole } from './types';

interface SiteRow {
  id: number | string;
  name: string;
  domain: string | null;
  aliases: string;
  timezone: string;
}

/** What the first site is called and where its days end until someone edits it. */
export interface DefaultSite {
  name: string;
  timezone: string;
}

export const unknownSite = (): SvcError => new SvcError('svc_unknown_site', 'No such site.', 404);

/** Another request or node gave a site the same domain since the check. */
const domainTaken =
  (domain: string | null) =>
  (err: unknown): never => {
    if (err instanceof UniqueConstraintError) throw badRequest(`domain: already used by another site (${domain})`, 'svc_invalid_param', { field: 'domain' });
    throw err;
  };

const toSite = (row: SiteRow): Site => ({
  id: Number(row.id),
  name: row.name,
  domain: row.domain,
  aliases: Object.freeze(JSON.parse(row.aliases) as string[]),
  timezone: row.timezone,
});

/** What plugins reach as `ctx.sites`. */
export type SitesApi = Pick<
  Sites,
  'list' | 'get' | 'getSoon' | 'default' | 'resolve' | 'forHost' | 'forHostSoon' | 'current' | 'authorize' | 'visibleSite' | 'can' | 'visibleTo' | 'add' | 'update' | 'remove' | 'onRemove' | 'roles'
>;

/** Work that deletes a site's rows the `site_id` sweep cannot find (rows tied to the site through another row). */
export type SiteRemoval = (siteId: number) => Promise<void>;

/**
 * The websites of the install (`ctx.sites`). The list is kept in memory and
 * loaded again when older than `ttlMs`, so a change on another app node shows
 * up within that time; a change on this node is seen at once.
 */
export class Sites {
  private cached: readonly Site[] | null = null;
  private loadedAt = 0;
  private loading: Promise<readonly Site[]> | null = null;
  private changes = 0;
  private readonly removals: SiteRemoval[] = [];
  /** `forHost`'s map of every domain and alias, and its answer for other hosts, for the list `hostsFor`. */
  private hosts = new Map<string, Site>();
  private anyHost: Site | 'unknown' = 'unknown';
  private hostsFor: readonly Site[] | null = null;
  /** People's roles per site. */
  readonly roles: SiteRoles;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly users: Users,
    private readonly first: DefaultSite,
    private readonly ttlMs = 5_000,
  ) {
    this.roles = new SiteRoles(db);
  }

  private get t(): string {
    return this.db.quote(this.db.table('sites'));
  }

  /** Every site, by id. */
  async list(): Promise<Site[]> {
    return [...(await this.loaded())];
  }

  async get(id: number): Promise<Site | null> {
    return this.getSoon(id);
  }

  /** `get`, at once when the list is in memory (the tracking pipeline asks on every hit). */
  getSoon(id: number): Soon<Site | null> {
    return soonThen(this.loadedSoon(), (sites) => sites.find((s) => s.id === id) ?? null);
  }

  async default(): Promise<Site> {
    return (await this.get(DEFAULT_SITE_ID))!;
  }

  /**
   * A site named by a caller: an id (number or digits) or its primary domain;
   * nothing (undefined, null, '') is the default site. An unknown one is a 404
   * `svc_unknown_site`.
   */
  async resolve(ref: unknown): Promise<Site> {
    if (ref === undefined || ref === null || ref === '') return this.default();
    const sites = await this.loaded();
    let found: Site | undefined;
    if (typeof ref === 'number') found = sites.find((s) => s.id === ref);
    else if (typeof ref === 'string' && /^\d+$/.test(ref)) found = sites.find((s) => s.id === Number(ref));
    else if (typeof ref === 'string') found = sites.find((s) => s.domain !== null && s.domain === normalizeHost(ref));
    if (!found) throw unknownSite();
    return found;
  }

  /**
   * The site a page host belongs to: the one whose domain or aliases match it;
   * otherwise the first site (lowest id) that has no domain yet, so the first
   * site takes any host until its domain is set; once every site has a domain,
   * 'unknown'.
   */
  async forHost(host: string): Promise<Site | 'unknown'> {
    return this.forHostSoon(host);
  }

  /** `forHost`, at once when the list is in memory (the tracking pipeline asks on every hit). */
  forHostSoon(host: string): Soon<Site | 'unknown'> {
    return soonThen(this.loadedSoon(), (sites) => {
      // A map of the hosts, built once per loaded list, answers at any number of sites.
      if (this.hostsFor !== sites) {
        this.hosts = new Map(sites.flatMap((s) => hostsOf(s).map((h) => [h, s] as const)));
        this.anyHost = sites.find((s) => s.domain === null) ?? 'unknown';
        this.hostsFor = sites;
      }
      return this.hosts.get(normalizeHost(host)) ?? this.anyHost;
    });
  }

  /** The site of the request being served (`request.site`); the default site outside a request. */
  async current(): Promise<Site> {
    return requestContext.current()?.site ?? this.default();
  }

  /**
   * The site a person asks for, checked as the REST layer checks it: the
   * site must exist and be theirs to see (a 404 `svc_unknown_site` either
   * way, see `visibleSite`), and they must hold `capability` there (403).
   * Anonymous callers and a null capability get the site resolved without a
   * check (public routes check for themselves).
   */
  async authorize(user: SvcUser | null, ref: unknown, capability: Capability | null): Promise<Site> {
    if (!user || capability === null) return this.resolve(ref);
    const roles = await this.rolesOf(user);
    const site = await this.pick(roles, ref);
    if (!(await this.granted(user, roles, site, capability))) throw forbidden();
    return site;
  }

  /**
   * The site a person asks for among those they may see, else a 404
   * `svc_unknown_site`. Administrators and people without per-site roles see
   * every site; a person with per-site roles sees those sites, and asking for
   * no site gives the default site when it is one of theirs, else the first
   * of theirs.
   */
  async visibleSite(user: SvcUser, ref: unknown): Promise<Site> {
    return this.pick(await this.rolesOf(user), ref);
  }

  /** Whether a person holds `capability` on a site (their per-site role there, else their account's role). */
  async can(user: SvcUser | null, site: Site, capability: Capability): Promise<boolean> {
    if (!user) return false;
    return this.granted(user, await this.rolesOf(user), site, capability);
  }

  /** The sites a person may see (the site switcher's list). */
  async visibleTo(user: SvcUser): Promise<Site[]> {
    const roles = await this.rolesOf(user);
    const sites = await this.list();
    return roles.size === 0 ? sites : sites.filter((s) => roles.has(s.id));
  }

  /** A person's roles per site; none for administrators, who see every site. */
  private rolesOf(user: SvcUser): Promise<ReadonlyMap<number, SiteRole>> {
    return user.role === 'administrator' ? Promise.resolve(new Map()) : this.roles.of(user.id);
  }

  private async pick(roles: ReadonlyMap<number, SiteRole>, ref: unknown): Promise<Site> {
    if (roles.size === 0) return this.resolve(ref);
    const mine = (await this.loaded()).filter((s) => roles.has(s.id));
    const site = ref === undefined || ref === null || ref === '' ? (mine.find((s) => s.id === DEFAULT_SITE_ID) ?? mine[0]) : await this.resolve(ref);
    if (!site || !roles.has(site.id)) throw unknownSite();
    return site;
  }

  private granted(user: SvcUser, roles: ReadonlyMap<number, SiteRole>, site: Site, capability: Capability): Promise<boolean> {
    if (roles.size === 0) return this.users.can(user, capability);
    const role = roles.get(site.id);
    return this.users.can(user, capability, role !== undefined && siteRoleHas(role, capability));
  }

  async add(input: SiteInput & { name: string }): Promise<Site> {
    const others = await this.fresh();
    const site = checkedSite(input, { name: '', domain: null, aliases: [], timezone: this.first.timezone }, others);
    const { id } = await this.db
      .insert(`INSERT INTO ${this.t} (name, domain, aliases, timezone, created_at) VALUES (?, ?, ?, ?, ?)`, [
        site.name,
        site.domain,
        JSON.stringify(site.aliases),
        site.timezone,
        this.clock.unix(),
      ])
      .catch(domainTaken(site.domain));
    this.invalidate();
    return { id, ...site };
  }

  async update(id: number, input: SiteInput): Promise<Site> {
    const sites = await this.fresh();
    const current = sites.find((s) => s.id === id);
    if (!current) throw unknownSite();
    const site = checkedSite(input, current, sites.filter((s) => s.id !== id));
    await this.db
      .execute(`UPDATE ${this.t} SET name = ?, domain = ?, aliases = ?, timezone = ? WHERE id = ?`, [
        site.name,
        site.domain,
        JSON.stringify(site.aliases),
        site.timezone,
        id,
      ])
      .catch(domainTaken(site.domain));
    this.invalidate();
    return { id, ...site };
  }

  /**
   * Removes a site and every row of it: the `onRemove` work first (while the
   * rows it follows are still there), then each table with a `site_id`
   * column loses the site's rows, then the site itself goes. When a step
   * fails the site stays, so removing it again finishes the work. The default
   * site stays.
   */
  async remove(id: number): Promise<void> {
    if (id === DEFAULT_SITE_ID) throw badRequest('id: the default site cannot be removed', 'svc_invalid_param', { field: 'id' });
    if (!(await this.fresh()).some((s) => s.id === id)) throw unknownSite();
    for (const removal of this.removals) await removal(id);
    await deleteSiteRows(this.db, id);
    await this.roles.forgetSite(id);
    await this.db.execute(`DELETE FROM ${this.t} WHERE id = ?`, [id]);
    this.invalidate();
  }

  /** Registers work that runs when a site is removed, before its `site_id` rows are deleted. */
  onRemove(removal: SiteRemoval): void {
    this.removals.push(removal);
  }

  /** `ctx.sites` of one plugin: `onRemove` is held back until its `register` succeeds. */
  forPlugin(defer: (fn: () => void) => void): SitesApi {
    return {
      list: () => this.list(),
      get: (id) => this.get(id),
      default: () => this.default(),
      resolve: (ref) => this.resolve(ref),
      forHost: (host) => this.forHost(host),
      forHostSoon: (host) => this.forHostSoon(host),
      getSoon: (id) => this.getSoon(id),
      current: () => this.current(),
      authorize: (user, ref, capability) => this.authorize(user, ref, capability),
      visibleSite: (user, ref) => this.visibleSite(user, ref),
      can: (user, site, capability) => this.can(user, site, capability),
      visibleTo: (user) => this.visibleTo(user),
      add: (input) => this.add(input),
      update: (id, input) => this.update(id, input),
      remove: (id) => this.remove(id),
      onRemove: (removal) => defer(() => this.onRemove(removal)),
      roles: this.roles,
    };
  }

  /** Drops the in-memory list; the next read loads it again. */
  invalidate(): void {
    this.cached = null;
    this.loading = null;
    this.changes++;
  }

  private async fresh(): Promise<readonly Site[]> {
    this.invalidate();
    return this.loaded();
  }

  private async loaded(): Promise<readonly Site[]> {
    return this.loadedSoon();
  }

  private loadedSoon(): Soon<readonly Site[]> {
    if (this.cached && this.clock.ms() - this.loadedAt < this.ttlMs) return this.cached;
    if (this.loading) return this.loading;
    const loading = this.load().finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    return loading;
  }

  private async load(): Promise<readonly Site[]> {
    const changes = this.changes;
    let rows = await this.select();
    if (!rows.some((r) => Number(r.id) === DEFAULT_SITE_ID)) {
      await insertIfAbsent(this.db, this.db.table('sites'), {
        id: DEFAULT_SITE_ID,
        name: this.first.name,
        domain: null,
        aliases: '[]',
        timezone: this.first.timezone,
        created_at: this.clock.unix(),
      });
      rows = await this.select();
    }
    const sites = Object.freeze(rows.map(toSite));
    if (changes === this.changes) {
      this.cached = sites;
      this.loadedAt = this.clock.ms();
    }
    return sites;
  }

  private select(): Promise<SiteRow[]> {
    return this.db.select<SiteRow>(`SELECT id, name, domain, aliases, timezone FROM ${this.t} ORDER BY id`);
  }
}
