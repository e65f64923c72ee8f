import { definePlugin } from '../../../../core/plugins/manifest';

/** The token the stand-in for the story plugin hands out. */
export const STORY_TOKEN = 'a1'.repeat(16);

/**
 * Stands in for the story plugin, which is built separately: it offers the
 * `story` format and the `story` link service reports use.
 */
export const storyStub = definePlugin({
  name: 'story-stub',
  tier: 'creator',
  register(ctx) {
    ctx.hooks.addFilter('svc_report_formats', (formats) => [...formats, 'story']);
    ctx.services.provide('story', {
      reportLink: async (reportId) => `${ctx.config.baseUrl}/svc-dashboard/story/?svc_share_token=${STORY_TOKEN}&report=${reportId}`,
    });
  },
});
