import type { PluginContext } from '../../../core/plugins/context';

/** The statistics tab: its menu item, dashboard pages and free data types. */
export async function registerStatisticsTab(_ctx: PluginContext): Promise<void> {}
