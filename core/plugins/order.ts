import { SvcError } from '../errors';
import type { PluginManifest } from './manifest';

export interface OrderResult {
  ordered: PluginManifest[];
  /** Plugins left out, with the coded error that says why. */
  rejected: Array<{ name: string; error: SvcError }>;
}

/**
 * Dependency order (requires first). A plugin whose requirement is missing, or
 * that sits in a cycle, is rejected with `SVC_ERR_PLUGIN_DEPENDENCY`, and so is
 * everything that requires it.
 */
export function orderPlugins(manifests: readonly PluginManifest[]): OrderResult {
  const byName = new Map(manifests.map((m) => [m.name, m]));
  const ordered: PluginManifest[] = [];
  const rejected: OrderResult['rejected'] = [];
  const state = new Map<string, 'visiting' | 'done' | 'failed'>();

  const visit = (m: PluginManifest): boolean => {
    const seen = state.get(m.name);
    if (seen === 'done') return true;
    if (seen === 'failed') return false;
    if (seen === 'visiting') {
      reject(m.name, `plugin ${m.name} is part of a dependency cycle`);
      return false;
    }
    state.set(m.name, 'visiting');
    for (const dep of m.requires ?? []) {
      const target = byName.get(dep);
      if (!target) return reject(m.name, `plugin ${m.name} requires ${dep}, which is not loaded`);
      if (!visit(target)) return reject(m.name, `plugin ${m.name} requires ${dep}, which could not be loaded`);
    }
    state.set(m.name, 'done');
    ordered.push(m);
    return true;
  };
  const reject = (name: string, message: string): false => {
    if (state.get(name) !== 'failed') {
      state.set(name, 'failed');
      rejected.push({ name, error: new SvcError('SVC_ERR_PLUGIN_DEPENDENCY', message, 500) });
    }
    return false;
  };
  for (const m of manifests) visit(m);
  return { ordered, rejected };
}
