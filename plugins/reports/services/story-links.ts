/**
 * What reports need from the story plugin: the share link of a report's
 * story dashboard. The story plugin provides it as the `story` service; until
 * it does, the story format is not offered.
 */
export interface StoryLinkService {
  /** The story URL of the site's report `reportId`, creating its share token (bound to the site) when it has none. */
  reportLink(siteId: number, reportId: number): Promise<string>;
}

declare module '../../../core/plugins/services' {
  interface SvcServices {
    story: StoryLinkService;
  }
}
