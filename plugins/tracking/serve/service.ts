import type { PageTyping } from './page-type';

/** What the tracker part of the tracking plugin offers other plugins (`ctx.services.get('trackerScripts')`). */
export interface TrackerScriptsService {
  /** The `<script>` line of the settings page for a site (default: the default site; embed snippet, ghost name, defer or async); null in headless mode. */
  snippet(siteId?: number): Promise<string | null>;
  /** ` data-svc_id="…" data-svc_type="…"` for a page's body tag (tracking.md §2.4); throws a TypeError for a bad id or type. */
  bodyAttributes(page: PageTyping): string;
  /** Writes those attributes into the first `<body>` tag of an HTML page. */
  addBodyAttributes(html: string, page: PageTyping): string;
}

declare module '../../../core/plugins/services' {
  interface SvcServices {
    trackerScripts: TrackerScriptsService;
  }
}
