import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { HookRegistry } from '../hooks/registry';
import type { RouteDefinition } from '../http/rest-router';
import type { SvcLogger } from '../logger';
import type { Settings } from '../settings/settings';
import { BlockStore } from './blocks/block-store';
import { PageviewWalker, type WalkSource, type WalkedPageview } from './blocks/walk';
import { Catalog } from './catalog';
import { dayStart } from './dates';
import type { DimensionDef, JoinDef } from './dimensions';
import { StatisticsEngine } from './engine';
import { type DataRunContext, DataRegistry, type DataTypeDef, type DatatableDef } from './registry';
import { type AllowList, type DataRequest, parseDataRequest } from './request';
import type { Frag } from './sql/fragment';
import { rawFrom } from './sql/raw-query';
import { QueryRunner } from './sql/runner';
import { SummaryFolder } from './summaries/folder';
import { RETENTION_SETTING, Retention, retentionSetting } from './summaries/retention';
import { SummaryState } from './summaries/state';
import { DEFAULT_SITE_ID } from '../sites/types';
import type { StatsFilter, StatsQuery, StatsRow, StatusFilter, TimeRange } from './types';

/** Memory for the day blocks when the kernel does not say (`SVC_STATS_CACHE_MB`'s default). */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** Statement time limit of dashboard queries (folding a day gets ten times as long). */
export const QUERY_TIMEOUT_MS = 10_000;

export interface StatisticsDeps {
  db: Database;
  clock: Clock;
  logger: SvcLogger;
  hooks: HookRegistry;
  settings: Settings;
  timezone: string;
  timeoutMs?: number;
  /** Memory for the day blocks (`SVC_STATS_CACHE_MB`); 0 answers from summaries and raw hits only. */
  cacheBytes?: number;
}

/** `ctx.statistics`: the query engine and the data registries, as a plugin sees them. */
export interface StatisticsApi {
  /** The site timezone (IANA) every day boundary uses. */
  readonly timezone: string;
  query(query: StatsQuery): Promise<StatsRow[]>;
  /** The shared request parser (ecommerce.md §4.1) for routes a plugin builds itself; dates in `timezone` (the site's; default the install's). */
  parseRequest(query: Readonly<Record<string, unknown>>, allow: AllowList, timezone?: string): DataRequest;
  /**
   * `FROM` the site's raw pageviews (alias `s`, with the joins the filters need)
   * `WHERE` in the range, status and filters, for a plugin's own raw query
   * (e.g. `SELECT s.session_id, s.time ${from.sql}`).
   */
  hitsFrom(source: { siteId: number; range: TimeRange; status: StatusFilter; filters: readonly StatsFilter[] }): Frag;
  /**
   * Hands `visit` every pageview of the site's range that passes the status and
   * filters, each session's in time order and days in order (funnels follow sessions through them); folded days
   * come from the day blocks in memory, the rest from raw hits.
   */
  walkPageviews(source: WalkSource, visit: (pageview: WalkedPageview) => void): Promise<void>;
  /** Every dimension name, for allow-lists that accept all of them. */
  dimensions(): string[];
  addJoin(def: JoinDef): void;
  addDimension(def: DimensionDef): void;
  /** Adds `GET {api_base}{base}/{id}` (meta `{ tab, dataId }`). */
  dataType(def: DataTypeDef): void;
  /** Adds `GET {api_base}{base}/datatable/{id}`, JSON or `?format=csv`. */
  datatable(def: DatatableDef): void;
  runType(id: string, query: Readonly<Record<string, unknown>>, context: DataRunContext, base?: string): Promise<unknown>;
  runTable(id: string, query: Readonly<Record<string, unknown>>, context: DataRunContext, base?: string): Promise<Array<Record<string, unknown>>>;
  list(): ReturnType<DataRegistry['list']>;
  /**
   * The filters the data route at `path` (below `{api_base}`, e.g.
   * `/data/ecommerce/subscriptions`) takes, `status` included, as they are now;
   * null when no data route has that path. Dashboard pages hand these to
   * their panels, so a panel can say which filters do not apply to it.
   */
  filtersAt(path: string): string[] | null;
  /** Folds every finished day into the summaries again (`svc statistics rebuild`). */
  rebuild(progress?: (done: number, total: number) => void): Promise<number>;
  /** Folds the site's finished days from `from` to `to` (unix times) again, e.g. after raw hits of them were deleted; answers the days folded. */
  refold(siteId: number, from: number, to: number, progress?: (done: number, total: number) => void): Promise<number>;
}

/**
 * The kernel's statistics service: engine, daily summaries (folded on
 * `svc_every_hour`, marked stale by late hits), retention on `svc_daily`,
 * and the registry of data types and datatables.
 */
export class StatisticsService {
  readonly catalog = new Catalog();
  readonly runner: QueryRunner;
  readonly state: SummaryState;
  readonly blocks: BlockStore;
  readonly engine: StatisticsEngine;
  readonly walker: PageviewWalker;
  readonly folder: SummaryFolder;
  readonly retention: Retention;
  readonly data: DataRegistry;

  constructor(private readonly deps: StatisticsDeps) {
    const { db, clock, logger, hooks, settings, timezone } = deps;
    const log = logger.child({ service: 'statistics' });
    this.runner = new QueryRunner(db, log, deps.timeoutMs ?? QUERY_TIMEOUT_MS);
    this.state = new SummaryState(db);
    this.blocks = new BlockStore(db, this.catalog, this.runner, this.state, timezone, log, deps.cacheBytes ?? DEFAULT_CACHE_BYTES);
    this.engine = new StatisticsEngine(db, this.catalog, this.runner, this.state, this.blocks, timezone);
    this.walker = new PageviewWalker(db, this.catalog, this.runner, this.blocks, timezone);
    this.folder = new SummaryFolder(db, this.catalog, this.runner, this.state, this.blocks, timezone, clock, log);
    this.retention = new Retention(db, this.folder, clock, timezone, log);
    this.data = new DataRegistry((query, allow, timezone) => this.parse(query, allow, timezone));
    settings.register(retentionSetting);
    hooks.addAction('svc_every_hour', async () => void (await this.folder.foldPending()), {}, 'statistics');
    hooks.addAction('svc_daily', async () => void (await this.retention.prune(await settings.get<number>(RETENTION_SETTING))), {}, 'statistics');
    hooks.addAction('svc_after_create_statistic', (_id, statistic) => this.noteHit(statistic.site_id ?? DEFAULT_SITE_ID, statistic.time), {}, 'statistics');
  }

  /** A data request with its dates read in `timezone` (default: the install's). */
  parse(query: Readonly<Record<string, unknown>>, allow: AllowList, timezone = this.deps.timezone): DataRequest {
    return parseDataRequest(query, allow, {
      timezone,
      now: this.deps.clock.unix(),
      canonical: (name) => this.catalog.canonical(name),
    });
  }

  /** A hit written for a day already folded makes that day's summaries of its site stale (nothing to wait for on today's hits). */
  noteHit(siteId: number, time: number): Promise<void> | undefined {
    const today = dayStart(this.deps.clock.unix(), this.deps.timezone);
    return time < today ? this.state.markDirty(siteId, dayStart(time, this.deps.timezone)) : undefined;
  }

  /** The view of one plugin: registrations are applied through `defer` and routes belong to the plugin. */
  forPlugin(defer: (apply: () => void) => void, addRoute: (def: RouteDefinition) => void): StatisticsApi {
    return {
      timezone: this.deps.timezone,
      query: (q) => this.engine.run(q),
      parseRequest: (query, allow, timezone) => this.parse(query, allow, timezone),
      hitsFrom: (src) => rawFrom(this.deps.db, this.catalog, { ...src, ranges: [src.range] }),
      walkPageviews: (src, visit) => this.walker.walk('walk_pageviews', src, visit),
      dimensions: () => this.catalog.names(),
      addJoin: (def) => defer(() => this.catalog.addJoin(def)),
      addDimension: (def) => defer(() => this.catalog.addDimension(def)),
      dataType: (def) => defer(() => addRoute(this.data.typeRoute(def))),
      datatable: (def) => defer(() => addRoute(this.data.tableRoute(def))),
      runType: (id, query, context, base) => this.data.runType(id, query, context, base),
      runTable: (id, query, context, base) => this.data.runTable(id, query, context, base),
      list: () => this.data.list(),
      filtersAt: (path) => this.data.filtersAt(path),
      rebuild: (progress) => this.folder.rebuild(progress),
      refold: (siteId, from, to, progress) => this.folder.refold(siteId, from, to, progress),
    };
  }
}
