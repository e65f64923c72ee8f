/** The three tracker scripts: their browser entry points and the file names they are served under (README, "Tracking"). */
export const SCRIPTS = {
  /** Cookie and private (cookieless) modes. */
  tracker: { entry: 'plugins/tracking/client/tracker/svc.entry.ts', file: 'svc.min.js' },
  /** Fingerprint mode. */
  cookieless: { entry: 'plugins/tracking/client/tracker/svc-cookieless.entry.ts', file: 'svc-cookieless.min.js' },
  /** Client-side goals, loaded by the tracker when a goal applies to the page. */
  goals: { entry: 'plugins/tracking/client/tracker/svc-goals.entry.ts', file: 'svc-goals.min.js' },
} as const;

export type ScriptKind = keyof typeof SCRIPTS;

/** The folder below `{base_url}` the scripts are served from. */
export const SCRIPTS_PATH = '/svc/js';
/** The embed snippet's path below `{base_url}`. */
export const EMBED_PATH = '/svc/embed.js';

export const JS_TYPE = 'application/javascript; charset=utf-8';

/** Scripts are loaded by other sites' pages: helmet's same-site resource policy would block them there. */
export const PUBLIC_SCRIPT_HEADERS = {
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Access-Control-Allow-Origin': '*',
} as const;
