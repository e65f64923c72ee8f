/**
 * The public surface for plugin authors (package `main`): the manifest helper,
 * the services' types, priorities, coded errors and response helpers.
 */
export { definePlugin, type PluginManifest } from './plugins/manifest';
export type { PluginContext } from './plugins/context';
export { Priority, type Hooks, type FilterName, type ActionName } from './hooks/registry';
export { SvcError, badRequest, unauthorized, forbidden, notFound, conflict, tooManyRequests, unavailable } from './errors';
export { type FieldProblem, FieldProblems, problemsOf, refused } from './field-problems';
export { MULTI_LINE, ONE_LINE, REQUIRED, absent, choice, flag, numeric, object, optionalFlag, optionalObject, refuse, text, type TextRule, wholeNumber, within } from './validation';
export { ok } from './http/envelope';
export { RestResponse, type RestRequest, type RestRouteDef } from './http/rest-types';
export type { AdminPageDef, AdminRequest, AdminResult } from './admin/admin';
export { UsageError } from './cli/args';
export type { CliCommand, CliIO } from './cli/command';
export type { Migration, MigrationContext } from './db/migrator';
export type { SettingField } from './settings/settings';
export { type Clock, ManualClock, SystemClock } from './clock';
export { Kernel, type KernelOptions } from './kernel';
