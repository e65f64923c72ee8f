import fs from 'node:fs';
import path from 'node:path';
import { type License, type SvcConfig, licenseAllows } from '../config';
import type { Database } from '../db/database';
import { runMigrations } from '../db/migrator';
import { SvcError, describeError } from '../errors';
import type { SvcLogger } from '../logger';
import { PLUGINS_DIR } from '../paths';
import type { PluginContext } from './context';
import { type PluginManifest, isManifest } from './manifest';
import { orderPlugins } from './order';

export type PluginState = 'loaded' | 'skipped' | 'failed';

export interface PluginStatus {
  name: string;
  tier: License | null;
  state: PluginState;
  /** Where the manifest came from: built-in folder, module path or 'inline'. */
  source: string;
  code?: string;
  reason?: string;
}

interface Candidate {
  manifest: PluginManifest;
  source: string;
}

/**
 * Deferred registrations of one plugin, applied only when `register` succeeds.
 * Once committed, later registrations (an ability switched on at run time)
 * apply at once.
 */
export class Staging {
  private readonly pending: Array<() => void> = [];
  private committed = false;
  defer = (apply: () => void): void => {
    if (this.committed) apply();
    else this.pending.push(apply);
  };
  commit(): void {
    this.committed = true;
    for (const apply of this.pending.splice(0)) apply();
  }
}

/** The module `<dir>/<name>.js` or `.ts`, or null when the folder has none. */
function moduleIn(dir: string, name: string): string | null {
  const file = [`${name}.js`, `${name}.ts`].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  return file ? path.join(dir, name) : null;
}

function builtInDirs(): string[] {
  if (!fs.existsSync(PLUGINS_DIR)) return [];
  return fs
    .readdirSync(PLUGINS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && moduleIn(path.join(PLUGINS_DIR, d.name), 'index') !== null)
    .map((d) => path.join(PLUGINS_DIR, d.name))
    .sort();
}

function requireManifest(modulePath: string): PluginManifest {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(modulePath) as { default?: unknown; plugin?: unknown };
  const manifest = mod.default ?? mod.plugin ?? mod;
  if (!isManifest(manifest)) {
    throw new SvcError('SVC_ERR_PLUGIN_INVALID', `${modulePath} does not export a plugin manifest { name, tier, register }`, 500);
  }
  return manifest;
}

/**
 * Finds the plugins to load: built-in folders, `SVC_PLUGIN_PATHS` modules and
 * inline manifests, narrowed by `SVC_PLUGINS` and the license.
 */
export function selectPlugins(config: SvcConfig, inline: readonly PluginManifest[]): { candidates: Candidate[]; statuses: PluginStatus[] } {
  const statuses: PluginStatus[] = [];
  const found: Candidate[] = [];
  const fail = (name: string, source: string, err: unknown) =>
    statuses.push({
      name,
      tier: null,
      state: 'failed',
      source,
      code: err instanceof SvcError ? err.code : 'SVC_ERR_PLUGIN_LOAD',
      reason: describeError(err),
    });

  // A built-in plugin's folder is its name: those SVC_PLUGINS leaves out are not even required.
  const builtIns = builtInDirs().filter((dir) => !config.plugins || config.plugins.includes(path.basename(dir)));
  for (const source of [...builtIns, ...config.pluginPaths]) {
    try {
      found.push({ manifest: requireManifest(source), source });
    } catch (err) {
      fail(path.basename(source), source, err);
    }
  }
  for (const manifest of inline) found.push({ manifest, source: 'inline' });

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const c of found) {
    const { name, tier } = c.manifest;
    if (seen.has(name)) {
      fail(name, c.source, new SvcError('SVC_ERR_PLUGIN_DUPLICATE', `a plugin named ${name} is already loaded`, 500));
      continue;
    }
    seen.add(name);
    if (config.plugins && !config.plugins.includes(name)) continue;
    if (!licenseAllows(config.license, tier)) {
      statuses.push({ name, tier, state: 'skipped', source: c.source, code: 'SVC_ERR_PLUGIN_LICENSE', reason: `needs the ${tier} license` });
      continue;
    }
    candidates.push(c);
  }
  for (const wanted of config.plugins ?? []) {
    if (!seen.has(wanted)) fail(wanted, 'SVC_PLUGINS', new SvcError('SVC_ERR_PLUGIN_UNKNOWN', `no plugin named ${wanted}`, 500));
  }
  return { candidates, statuses };
}

export interface LoadDeps {
  /** Receives each status as soon as it is known, so `isLoaded` works during later registrations. */
  statuses: PluginStatus[];
  db: Database;
  logger: SvcLogger;
  /** Builds the plugin's context; its registrations go through `staging`. */
  context(manifest: PluginManifest, staging: Staging): PluginContext;
}

/**
 * Migrates and registers plugins in dependency order. A plugin that fails is
 * reported with a coded error and leaves nothing registered; the others start.
 */
export async function loadPlugins(selection: ReturnType<typeof selectPlugins>, deps: LoadDeps): Promise<PluginStatus[]> {
  const statuses = deps.statuses;
  statuses.push(...selection.statuses);
  const sources = new Map(selection.candidates.map((c) => [c.manifest.name, c.source]));
  const { ordered, rejected } = orderPlugins(selection.candidates.map((c) => c.manifest));
  for (const r of rejected) {
    statuses.push({ name: r.name, tier: null, state: 'failed', source: sources.get(r.name) ?? '', code: r.error.code, reason: r.error.message });
  }
  const loaded = new Set<string>();
  for (const manifest of ordered) {
    const source = sources.get(manifest.name) ?? '';
    const missing = (manifest.requires ?? []).filter((dep) => !loaded.has(dep));
    try {
      if (missing.length) {
        throw new SvcError('SVC_ERR_PLUGIN_DEPENDENCY', `plugin ${manifest.name} requires ${missing.join(', ')}, which failed to load`, 500);
      }
      await runMigrations(deps.db, manifest.name, manifest.migrations ?? [], deps.logger);
      const staging = new Staging();
      await manifest.register(deps.context(manifest, staging));
      staging.commit();
      loaded.add(manifest.name);
      statuses.push({ name: manifest.name, tier: manifest.tier, state: 'loaded', source });
    } catch (err) {
      const code = err instanceof SvcError && err.code.startsWith('SVC_ERR_') ? err.code : 'SVC_ERR_PLUGIN_REGISTER';
      statuses.push({ name: manifest.name, tier: manifest.tier, state: 'failed', source, code, reason: describeError(err) });
    }
  }
  for (const s of statuses) {
    if (s.state === 'failed') deps.logger.error({ plugin: s.name, code: s.code }, `plugin ${s.name} not loaded: ${s.reason}`);
    else if (s.state === 'skipped') deps.logger.info({ plugin: s.name, code: s.code }, `plugin ${s.name} skipped: ${s.reason}`);
  }
  return statuses;
}

/**
 * Registers the always-loaded part (`always.ts`) of every built-in plugin the
 * license allows, whatever `SVC_PLUGINS` selects: what must exist even when
 * the plugin itself is not loaded (its settings fields; the answer a license
 * without it gives). These parts are not listed among the plugins, have no
 * migrations, and the kernel does not start when one fails.
 */
export async function loadAlwaysParts(config: SvcConfig, context: LoadDeps['context']): Promise<void> {
  for (const dir of builtInDirs()) {
    const modulePath = moduleIn(dir, 'always');
    if (!modulePath) continue;
    const manifest = requireManifest(modulePath);
    if (!licenseAllows(config.license, manifest.tier)) continue;
    const staging = new Staging();
    try {
      await manifest.register(context(manifest, staging));
    } catch (err) {
      throw new SvcError('SVC_ERR_PLUGIN_REGISTER', `the always-loaded part of plugin ${path.basename(dir)} failed: ${describeError(err)}`, 500);
    }
    staging.commit();
  }
}

/** The migrations every loadable plugin ships, for `svc migrate`. */
export async function migratePlugins(selection: ReturnType<typeof selectPlugins>, db: Database, logger: SvcLogger): Promise<string[]> {
  const applied: string[] = [];
  for (const manifest of orderPlugins(selection.candidates.map((c) => c.manifest)).ordered) {
    applied.push(...(await runMigrations(db, manifest.name, manifest.migrations ?? [], logger)));
  }
  return applied;
}
