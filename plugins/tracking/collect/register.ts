import type { PluginContext } from '../../../core/plugins/context';

/** Endpoints, pipeline, exclusions, goals, searches, external links and maintenance jobs of tracking.md. */
export async function registerCollection(_ctx: PluginContext): Promise<void> {}
