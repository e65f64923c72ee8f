/**
 * The plugin SDK (package `main`): the one module through which server code
 * of a plugin reaches the kernel — the manifest helper, the services' types,
 * priorities, coded errors, response helpers and the shared helpers of the
 * statistics engine. Browser code imports `core/assets/client` instead. A lint
 * rule (eslint.config.js) refuses any other import from `plugins/` into `core/`.
 */

// Plugins: the manifest, the context and the services they offer each other.
export { definePlugin, type PluginManifest } from './plugins/manifest';
export type { PluginContext } from './plugins/context';
export type { SvcServices } from './plugins/services';
export { Kernel, type KernelOptions } from './kernel';
export { type License, type SvcConfig, commaList, licenseAllows } from './config';

// Hooks, errors and responses.
export { Priority, type Hooks, type FilterName, type ActionName } from './hooks/registry';
export { SvcError, badRequest, unauthorized, forbidden, notFound, conflict, tooManyRequests, unavailable, describeError, isSvcError } from './errors';
export { type FieldProblem, FieldProblems, problemsOf, refused } from './field-problems';
export { MULTI_LINE, ONE_LINE, REQUIRED, absent, choice, flag, numeric, object, optionalFlag, optionalObject, refuse, text, type TextRule, wholeNumber, within } from './validation';
export { ok } from './http/envelope';
export { RestResponse, type RestRequest, type RestRouteDef } from './http/rest-types';
export { type CachedBody, IMMUTABLE, REVALIDATE, acceptsGzip, cachedHeaders, sendCached } from './http/cached-response';
export { type CorsPolicy, corsMiddleware } from './http/cors';
export type { HotAnswer, HotRequest, HotRouteDef } from './http/hot-routes';

// The kernel services' types (what `ctx` holds).
export type { AdminPageDef, AdminRequest, AdminResult } from './admin/admin';
export { dashboardUrl } from './admin/dashboard-url';
export type { AbilitiesRegistry, AbilityCategory, JsonSchema } from './abilities/registry';
export type { ApplicationPasswords } from './auth/app-passwords';
export { isRole } from './auth/roles';
export { SESSION_COOKIE, type SessionStore } from './auth/sessions';
export { ANONYMOUS, type Principal, type SvcUser } from './auth/types';
export type { Users } from './auth/users';
export type { ObjectCache } from './cache/object-cache';
export { UsageError, parseCommandArgs } from './cli/args';
export type { CliCommand, CliIO } from './cli/command';
export { type Clock, ManualClock, SystemClock } from './clock';
export { type Soon, type SoonSteps, isPending, runSoon, soonThen } from './soon';
export type { SvcLogger } from './logger';
export type { Mailer } from './mail/mailer';
export type { OptionSnapshot, Options } from './options/options';
export type { Transients } from './options/transients';
export type { SiteRemoval, SitesApi } from './sites/sites';
export { DEFAULT_SITE_ID, type Site, type SiteInput, type SiteRole } from './sites/types';
export { type PluginSettings, type SettingField, parseBoolean, parseChoice, parseLines, siteOptionName } from './settings/settings';

// The database: migrations, SQL helpers, the hot path's driver statements.
export { type Database, redactUrl } from './db/database';
export type { Migration, MigrationContext } from './db/migrator';
export type { DirectDatabase, DirectStatements, DirectValue } from './db/direct';
export { RateLimiter } from './db/rate-limiter';
export { isCommitUnknown } from './db/retry';
export { LOCK_ROWS, insertIfAbsent, insertIgnoring } from './db/sql';

// The statistics engine: requests, periods, SQL fragments, data types.
export type { StatisticsApi } from './statistics/service';
export type { WalkedPageview, WalkSource } from './statistics/blocks/walk';
export { roomFor } from './statistics/blocks/typed-arrays';
export type { DataRunContext } from './statistics/registry';
export { type AllowList, type DataRequest, nameList } from './statistics/request';
export { autoBucket, bucketEdges, dayStart, isoDay, lastAtOrBefore, previousPeriod, rangeOfDays, yearEarlier } from './statistics/dates';
export { percentChange } from './statistics/metrics';
export { type Frag, frag, joinFrags } from './statistics/sql/fragment';
export { RETENTION_SETTING, retentionCutoff } from './statistics/summaries/retention';
export { FILTER_OPERATORS, type FilterOperator, filterValues, isPlainFilter, METRICS, type MetricName, type StatsFilter, type StatsQuery, type StatsRow, type StatusFilter, type TimeBucket, type TimeRange } from './statistics/types';
// The dashboard's period presets, shared with the browser code.
export { PRESETS, presetRange } from './assets/client/range';
