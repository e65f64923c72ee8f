import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { AbilitiesRegistry } from './abilities/registry';
import { createMcpRouter } from './abilities/mcp';
import { createAbilitiesRouter } from './abilities/routes';
import { AdminService } from './admin/admin';
import { AssetService } from './assets/assets';
import type { CliCommand } from './cli/command';
import { registerLoginPages } from './admin/login-pages';
import { Accounts } from './auth/accounts';
import { ApplicationPasswords } from './auth/app-passwords';
import { LoginLimiter } from './auth/login-limiter';
import { Nonces } from './auth/nonces';
import { type Authenticator, createPassport } from './auth/passport';
import { type SessionStore, createSessionStore } from './auth/sessions';
import { Users } from './auth/users';
import { ObjectCache } from './cache/object-cache';
import { type Clock, SystemClock } from './clock';
import { type SvcConfig, loadConfig } from './config';
import { type Database, connectDatabase } from './db/database';
import { runMigrations } from './db/migrator';
import { RateLimiter } from './db/rate-limiter';
import { HookRegistry } from './hooks/registry';
import { HttpApp } from './http/app';
import { HotRoutes } from './http/hot-routes';
import { DEFAULT_TIMEOUTS, type HttpTimeouts, applyTimeouts } from './http/timeouts';
import { type ListeningAddress, describeListening } from './http/listen-address';
import { requestContext } from './http/request-context';
import { RestRouter } from './http/rest-router';
import { type SvcLogger, createLogger } from './logger';
import { type DomainResolver, createResolver } from './mail/dns-check';
import { Mailer } from './mail/mailer';
import { Options } from './options/options';
import { Transients } from './options/transients';
import type { PluginContext } from './plugins/context';
import { type PluginStatus, type Staging, loadAlwaysParts, loadPlugins, selectPlugins } from './plugins/loader';
import type { PluginManifest } from './plugins/manifest';
import { ServiceRegistry } from './plugins/services';
import { Scheduler } from './scheduler/scheduler';
import { ensureFirstAdmin } from './setup/first-admin';
import { registerCore } from './setup/register-core';
import { Settings } from './settings/settings';
import { Sites } from './sites/sites';
import { StatisticsService } from './statistics/service';
import { coreMigrations } from './migrations';
import { SVC_VERSION } from './version';

export interface KernelOptions {
  /** Defaults to `loadConfig(env)`. */
  config?: SvcConfig;
  env?: NodeJS.ProcessEnv;
  logger?: SvcLogger;
  clock?: Clock;
  /** DNS resolver for the recipient-domain check (tests pass their own server). */
  resolver?: DomainResolver;
  /** Manifests loaded besides the built-in and `SVC_PLUGIN_PATHS` ones. */
  plugins?: readonly PluginManifest[];
  /** Writes the generated first-admin password; stdout by default. */
  announce?: (line: string) => void;
  /** Connection timeouts other than the documented ones (tests use short ones). */
  httpTimeouts?: Partial<HttpTimeouts>;
}

/**
 * The kernel: boots the database, the kernel services and the plugins, and
 * serves HTTP. `Kernel.boot` leaves timers off; `listen` starts them.
 */
export class Kernel {
  private server: http.Server | null = null;
  private readonly stopHandlers: Array<() => void | Promise<void>> = [];
  private readonly pluginStatuses: PluginStatus[] = [];
  /** Commands plugins added to `svc`, by name. */
  readonly commands = new Map<string, CliCommand>();
  /** POST routes also served before express (core/http/hot-routes.ts). */
  readonly hotRoutes: HotRoutes;
  /** Services plugins provide to each other. */
  readonly services = new ServiceRegistry();
  /** The host abilities interface (categories and abilities plugins register). */
  readonly abilities: AbilitiesRegistry;
  /** The statistics engine, its daily summaries and the data types and datatables plugins register. */
  readonly statistics: StatisticsService;
  /** Browser code bundled with esbuild. */
  readonly assets: AssetService;
  /** Account changes that also end sign-ins and application passwords. */
  readonly accounts: Accounts;
  /** Set from `KernelOptions.httpTimeouts` at boot. */
  private httpTimeouts: Partial<HttpTimeouts> = {};

  private constructor(
    readonly config: SvcConfig,
    readonly logger: SvcLogger,
    readonly clock: Clock,
    readonly db: Database,
    readonly hooks: HookRegistry,
    readonly options: Options,
    readonly transients: Transients,
    readonly cache: ObjectCache,
    readonly users: Users,
    /** The budget of password checks the sign-in form, the Account page and HTTP Basic share. */
    readonly loginLimiter: LoginLimiter,
    readonly appPasswords: ApplicationPasswords,
    readonly nonces: Nonces,
    readonly sessions: SessionStore,
    readonly passport: Authenticator,
    readonly rest: RestRouter,
    readonly http: HttpApp,
    readonly admin: AdminService,
    readonly settings: Settings,
    readonly scheduler: Scheduler,
    readonly mailer: Mailer,
    /** The websites this install serves. */
    readonly sites: Sites,
  ) {
    this.abilities = new AbilitiesRegistry(logger.child({ service: 'abilities' }), sites);
    this.hotRoutes = new HotRoutes(config.basePath, logger);
    this.statistics = new StatisticsService({ db, clock, logger, hooks, settings, timezone: config.timezone, cacheBytes: config.statsCacheMb * 1024 * 1024 });
    this.assets = new AssetService(config.basePath, logger.child({ service: 'assets' }));
    this.accounts = new Accounts(users, appPasswords, sessions);
  }

  static async boot(opts: KernelOptions = {}): Promise<Kernel> {
    const config = opts.config ?? loadConfig(opts.env);
    const logger = opts.logger ?? createLogger();
    const clock = opts.clock ?? new SystemClock();
    const db = await connectDatabase(config.databaseUrl, config.tablePrefix, logger.child({ service: 'db' }));
    try {
      await runMigrations(db, 'core', coreMigrations, logger);
      const hooks = new HookRegistry(logger);
      const options = new Options(db, clock);
      const secret = async (name: string) => {
        await options.add(name, randomBytes(32).toString('hex'), { autoload: true });
        return (await options.get<string>(name))!;
      };
      const users = new Users(db, clock, hooks);
      const limiter = new LoginLimiter(new RateLimiter(db, clock));
      const appPasswords = new ApplicationPasswords(db, clock, users, limiter);
      const nonces = new Nonces(await secret('svc_nonce_secret'), clock, hooks);
      const sessions = createSessionStore(db, config, await secret('svc_session_secret'));
      const passport = createPassport(users, appPasswords);
      const sites = new Sites(db, clock, users, { name: new URL(config.baseUrl).host, timezone: config.timezone });
      await sites.list();
      const rest = new RestRouter({ users, nonces, hooks, sites });
      const httpApp = new HttpApp({ config, logger, sessions, passport });
      const admin = new AdminService({ config, users, nonces, hooks, logger, sites });
      const settings = new Settings(options, config.license);
      sites.onRemove((siteId) => settings.removeSite(siteId));
      const mailer = new Mailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        resolver: opts.resolver ?? createResolver(config.dnsServers),
        clock,
      });
      const kernel = new Kernel(
        config,
        logger,
        clock,
        db,
        hooks,
        options,
        new Transients(db, clock),
        new ObjectCache(),
        users,
        limiter,
        appPasswords,
        nonces,
        sessions,
        passport,
        rest,
        httpApp,
        admin,
        settings,
        new Scheduler(db, hooks, clock, logger.child({ service: 'scheduler' }), config.timezone),
        mailer,
        sites,
      );
      kernel.httpTimeouts = opts.httpTimeouts ?? {};
      await kernel.setUp(opts);
      return kernel;
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }

  /** Plugins found, loaded, skipped or failed, with the reason. */
  get plugins(): readonly PluginStatus[] {
    return this.pluginStatuses;
  }

  isLoaded(name: string): boolean {
    return this.pluginStatuses.some((p) => p.name === name && p.state === 'loaded');
  }

  /** Serves HTTP on `port` and `host` (default `PORT` and `HOST`) and starts the scheduler; resolves to the base URL actually bound. */
  /** Serves on a port, or on a server already bound (tests reserve port 0 that way, so no other process can take it). */
  async listen(port: number | net.Server = this.config.port, host = this.config.host ?? undefined): Promise<string> {
    const app = this.http.app;
    const hot = this.hotRoutes;
    const server = http.createServer((req, res) => {
      if (!hot.handle(req, res)) app(req, res);
    });
    applyTimeouts(server, { ...DEFAULT_TIMEOUTS, ...this.httpTimeouts });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (typeof port === 'number') server.listen(port, host, () => resolve());
      else server.listen(port, () => resolve());
    });
    this.server = server;
    this.scheduler.start();
    return this.listening()!.url;
  }

  /** Where the server listens, once `listen` has run. */
  listening(): ListeningAddress | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? describeListening(address, this.config.basePath) : null;
  }

  onStop(fn: () => void | Promise<void>): void {
    this.stopHandlers.push(fn);
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    if (this.server) {
      const server = this.server;
      this.server = null;
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await this.hooks.settled();
    for (const fn of this.stopHandlers.splice(0).reverse()) {
      try {
        await fn();
      } catch (err) {
        this.logger.error({ err }, 'stop handler failed');
      }
    }
    this.sessions.close();
    this.mailer.close();
    await this.db.close();
  }

  private async setUp(opts: KernelOptions): Promise<void> {
    registerLoginPages(this.admin, this.passport, this.loginLimiter);
    registerCore(this);
    await ensureFirstAdmin(this.users, this.config, this.logger, opts.announce ?? ((line) => process.stdout.write(`${line}\n`)));
    const context = (manifest: PluginManifest, staging: Staging) => this.pluginContext(manifest, staging);
    await loadAlwaysParts(this.config, context);
    const selection = selectPlugins(this.config, opts.plugins ?? []);
    await loadPlugins(selection, { statuses: this.pluginStatuses, db: this.db, logger: this.logger, context });
    for (const route of this.statistics.data.fallbackRoutes()) this.rest.add('core', route);
    this.http.mount('/', this.assets.router);
    this.http.mountRest('svc/v1', this.rest.router);
    this.http.mountRest('wp-abilities/v1', createAbilitiesRouter(this.abilities, { users: this.users, nonces: this.nonces, hooks: this.hooks, sites: this.sites }));
    this.http.mount('/svc/mcp', createMcpRouter(this.abilities, this.logger.child({ service: 'mcp' }), SVC_VERSION), { basicAuth: true });
    this.http.mountAdmin(this.admin.router);
  }

  private pluginContext(manifest: PluginManifest, staging: Staging): PluginContext {
    const { defer } = staging;
    return {
      name: manifest.name,
      config: this.config,
      hooks: this.hooks.forPlugin(manifest.name, defer),
      rest: { route: (def) => defer(() => this.rest.add(manifest.name, def)) },
      http: {
        mount: (p, router, options) => defer(() => this.http.mount(p, router, options)),
        hotRoute: (def) => defer(() => this.http.route(def.path, this.hotRoutes.add(def), { quiet: true, session: 'lazy', basicAuth: def.basicAuth })),
        clientAddress: (headers, remoteAddress) => this.http.clientAddress(headers, remoteAddress),
        currentRequest: () => requestContext.current(),
        currentHeaders: () => requestContext.headers(),
        currentPrincipal: () => requestContext.principal(),
      },
      admin: {
        page: (def) => defer(() => this.admin.page(def)),
        menuItem: (item) => defer(() => this.hooks.addFilter('svc_menu', (menu) => [...menu, item], {}, manifest.name)),
        render: (...args) => this.admin.render(...args),
        serve: (...args) => this.admin.serve(...args),
        url: (p) => this.admin.url(p),
      },
      db: this.db,
      options: this.options,
      transients: this.transients,
      cache: this.cache,
      settings: this.settings.forPlugin(defer),
      scheduler: this.scheduler,
      mailer: this.mailer,
      clock: this.clock,
      logger: this.logger.child({ plugin: manifest.name }),
      auth: { users: this.users, appPasswords: this.appPasswords, nonces: this.nonces, sessions: this.sessions },
      cli: { command: (def) => defer(() => this.commands.set(def.name, def)) },
      services: {
        provide: (name, service) => defer(() => this.services.provide(name, service)),
        get: (name) => this.services.get(name),
        require: (name) => this.services.require(name),
      },
      abilities: {
        registerCategory: (category) => defer(() => this.abilities.registerCategory(category)),
        register: (def) => defer(() => this.abilities.register(def)),
        unregister: (name) => this.abilities.unregister(name),
        unregisterCategory: (slug) => this.abilities.unregisterCategory(slug),
      },
      statistics: this.statistics.forPlugin(defer, (def) => this.rest.add(manifest.name, def)),
      assets: {
        register: (def) => {
          const url = this.assets.urlOf(def);
          defer(() => this.assets.register(def));
          return url;
        },
        versionedUrl: (entry) => this.assets.versionedUrl(entry),
        bundle: (entry) => this.assets.bundle(entry),
      },
      sites: this.sites.forPlugin(defer),
      plugins: { isLoaded: (name) => this.isLoaded(name) },
      onStop: (fn) => this.onStop(fn),
    };
  }
}
