import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Router } from 'express';
import type { SvcMenuItem } from '../../hooks';
import type { AbilitiesRegistry } from '../abilities/registry';
import type { AdminPageDef, AdminService } from '../admin/admin';
import type { AssetsApi } from '../assets/assets';
import type { ApplicationPasswords } from '../auth/app-passwords';
import type { Nonces } from '../auth/nonces';
import type { SessionStore } from '../auth/sessions';
import type { Principal } from '../auth/types';
import type { Users } from '../auth/users';
import type { ObjectCache } from '../cache/object-cache';
import type { CliCommand } from '../cli/command';
import type { Clock } from '../clock';
import type { SvcConfig } from '../config';
import type { Database } from '../db/database';
import type { Hooks } from '../hooks/registry';
import type { PublicMountOptions } from '../http/app';
import type { HotRouteDef } from '../http/hot-routes';
import type { RouteDefinition } from '../http/rest-router';
import type { SvcLogger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { Options } from '../options/options';
import type { Transients } from '../options/transients';
import type { Scheduler } from '../scheduler/scheduler';
import type { PluginSettings } from '../settings/settings';
import type { SitesApi } from '../sites/sites';
import type { StatisticsApi } from '../statistics/service';
import type { ServiceRegistry } from './services';

/** Kernel services handed to `register(ctx)`; a plugin reaches the rest of the system only through these. */
export interface PluginContext {
  readonly name: string;
  readonly config: Readonly<SvcConfig>;
  /** Typed filters and actions; this plugin's taps are tagged with its name. */
  readonly hooks: Hooks;
  /** Routes below `{api_base}`, with the capability each needs. */
  readonly rest: { route(def: RouteDefinition): void };
  /** Routes outside the REST API (tracking endpoints, scripts, share pages). */
  readonly http: {
    mount(path: string, router: Router, options?: PublicMountOptions): void;
    /**
     * A POST route on a hot path, declared once: the kernel serves the usual
     * anonymous request before express and every other (a sign-in cookie, an
     * application password, an encoded body, a preflight) through express,
     * both with the same handler, CORS policy, errors and request context.
     */
    hotRoute(def: HotRouteDef): void;
    /**
     * The client's address when `SVC_TRUST_PROXY` names the proxies: forwarded
     * headers count only on connections from them (`X-Forwarded-For` read from
     * the right, past the proxies); anyone else is their connection's address.
     * Null when `SVC_TRUST_PROXY` is not set.
     */
    clientAddress(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string | null;
    /** The request being served by express, for hook handlers whose arguments do not carry it. */
    currentRequest(): Request | undefined;
    /** The headers of the request being served, by express or on a hot route's hot path. */
    currentHeaders(): IncomingHttpHeaders | undefined;
    currentPrincipal(): Principal;
  };
  /** Pages below `/svc-admin` rendered in the admin layout. */
  readonly admin: {
    page(def: AdminPageDef): void;
    /** Adds an item to the admin menu (through `svc_menu`). */
    menuItem(item: SvcMenuItem): void;
    render: AdminService['render'];
    /** Serves an admin page to a request that arrived elsewhere (share links show tabs in place). */
    serve: AdminService['serve'];
    url(path: string): string;
  };
  readonly db: Database;
  readonly options: Options;
  readonly transients: Transients;
  readonly cache: ObjectCache;
  /** Settings fields and panels; registrations are held back until `register` succeeds. */
  readonly settings: PluginSettings;
  readonly scheduler: Pick<Scheduler, 'scheduleSingle' | 'nextScheduled' | 'unschedule' | 'pending' | 'runDue'>;
  readonly mailer: Mailer;
  readonly clock: Clock;
  /** Bound to `{ plugin: name }`. */
  readonly logger: SvcLogger;
  readonly auth: {
    users: Users;
    appPasswords: ApplicationPasswords;
    nonces: Nonces;
    sessions: Pick<SessionStore, 'destroyForUser'>;
  };
  /** The host abilities interface: categories and abilities for automation (REST and MCP). */
  readonly abilities: Pick<AbilitiesRegistry, 'registerCategory' | 'register' | 'unregister' | 'unregisterCategory'>;
  /** Services plugins offer each other by name (see core/plugins/services.ts). */
  readonly services: Pick<ServiceRegistry, 'provide' | 'get' | 'require'>;
  /** `svc <command>` additions (e.g. `svc demo`). */
  readonly cli: { command(def: CliCommand): void };
  /** The statistics query engine and the registry of data types and datatables (core/statistics). */
  readonly statistics: StatisticsApi;
  /** Browser entry points bundled with esbuild and served with content-hash caching (core/assets). */
  readonly assets: AssetsApi;
  /** The websites of the install: lookup by id, domain or page host, the request's site (`current`), changes. */
  readonly sites: SitesApi;
  readonly plugins: {
    /** Whether another plugin is loaded (for optional cooperation through hooks). */
    isLoaded(name: string): boolean;
  };
  /** Registers work to run when the kernel stops (timers, open handles). */
  onStop(fn: () => void | Promise<void>): void;
}
