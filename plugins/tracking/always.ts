import { definePlugin } from '../../core';
import { registerTrackingSettings } from './settings/tracking-settings';

/**
 * Loaded on every configuration, whether or not the tracking plugin is: the
 * tracking settings (tracking.md §2.5), on the settings page and in
 * `svc option`.
 */
export default definePlugin({
  name: 'tracking-settings',
  tier: 'free',
  register(ctx) {
    registerTrackingSettings(ctx.settings);
  },
});
