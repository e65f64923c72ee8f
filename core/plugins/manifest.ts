import type { License } from '../config';
import type { Migration } from '../db/migrator';
import type { PluginContext } from './context';

/** What a plugin module exports (README, "Writing a plugin"). */
export interface PluginManifest {
  /** Unique id, also the folder name of built-in plugins. */
  name: string;
  /** Lowest license that loads the plugin. */
  tier: License;
  /** Plugins that must be loaded (and registered) first. */
  requires?: readonly string[];
  /** Schema steps applied before `register` runs. */
  migrations?: readonly Migration[];
  /** Wires routes, hooks, pages and jobs through the kernel services in `ctx`. */
  register(ctx: PluginContext): void | Promise<void>;
}

/** Identity helper that gives a manifest its type. */
export function definePlugin(manifest: PluginManifest): PluginManifest {
  return manifest;
}

export function isManifest(value: unknown): value is PluginManifest {
  const m = value as Partial<PluginManifest> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.name === 'string' &&
    /^[a-z0-9][a-z0-9_-]*$/.test(m.name) &&
    (m.tier === 'free' || m.tier === 'creator' || m.tier === 'business') &&
    typeof m.register === 'function'
  );
}
