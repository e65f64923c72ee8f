import { type PluginContext, unavailable } from '../../../core';
import type { GhostFiles } from './ghost-files';
import { type BuiltScript, ScriptCache } from './script-response';
import type { ScriptSettings } from './script-settings';
import { SCRIPTS, SCRIPTS_PATH, type ScriptKind } from './scripts';

type Ctx = Pick<PluginContext, 'config' | 'hooks' | 'services' | 'assets' | 'logger'>;

/** JSON that is also safe inside an HTML `<script>` element (a site owner may paste the snippet inline). */
const inlineJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** Loads `urls` one after another (each after the previous loaded or failed), then calls `then`. */
function loader(urls: string[], then = ''): string {
  return `(function(d,u,f){function n(){var s=u.shift(),e;if(!s)return f&&f();e=d.createElement("script");e.src=s;e.onload=e.onerror=n;d.head.appendChild(e)}n()})(document,${inlineJson(urls)}${then ? `,${then}` : ''});\n`;
}

/** A dependency URL the loader may fetch: absolute http(s) or root-relative. */
const isScriptUrl = (value: unknown): value is string => typeof value === 'string' && value.length <= 2048 && /^(https?:\/\/[^\s"'<>]+|\/[^/\s"'<>][^\s"'<>]*)$/.test(value);

/**
 * The embed snippet `{base_url}/svc/embed.js`: the `svc` options of
 * tracking.md §2.6 for every page (the script picks the page's goals),
 * `svc_rest_url`, then the tracker — inlined when `combine_vars_and_script`
 * is on, else loaded by URL — after the `svc_script_dependencies`.
 */
export class EmbedScripts {
  private readonly cache = new ScriptCache();
  private readonly origin: string;

  constructor(
    private readonly ctx: Ctx,
    private readonly ghost: GhostFiles,
  ) {
    this.origin = new URL(ctx.config.baseUrl).origin;
  }

  /** Where a page loads a tracker script from: with its content hash, under its ghost name in ghost mode. */
  async scriptUrl(kind: ScriptKind, settings: ScriptSettings): Promise<string> {
    const { entry } = SCRIPTS[kind];
    if (settings.ghost) return `${this.ghost.url(kind)}?v=${(await this.ctx.assets.bundle(entry)).hash}`;
    return `${this.origin}${await this.ctx.assets.versionedUrl(entry)}`;
  }

  /** The snippet of one site: its goals, and its id for the tracker to send when it is not the default site. */
  async build(settings: ScriptSettings, siteId: number): Promise<BuiltScript> {
    const { config } = this.ctx;
    const tracking = this.ctx.services.get('tracking');
    if (!tracking) throw unavailable('The tracking service is not running.', 'svc_tracking_unavailable');
    const options = await tracking.trackingOptions({ pageUrl: '', pageId: 0, everyPage: true, siteId });
    if (options.goals.scriptUrl === `${config.baseUrl}${SCRIPTS_PATH}/${SCRIPTS.goals.file}`) {
      options.goals.scriptUrl = await this.scriptUrl('goals', settings);
    }
    const kind: ScriptKind = options.options.privacy_level === 'fingerprint' ? 'cookieless' : 'tracker';
    const deps = await this.dependencies();
    const prelude = `window.svc=${inlineJson(options)};window.svc_rest_url=${inlineJson(config.apiBase)};\n`;
    let body: string;
    if (settings.combine) {
      const code = (await this.ctx.assets.bundle(SCRIPTS[kind].entry)).code.toString('utf8');
      body = deps.length > 0 ? loader(deps, `function(){${code}}`) : code;
    } else {
      body = loader([...deps, await this.scriptUrl(kind, settings)]);
    }
    return this.cache.build(`${settings.ghost ? 'ghost' : 'embed'} ${siteId}`, Buffer.from(prelude + body));
  }

  private async dependencies(): Promise<string[]> {
    const deps = await this.ctx.hooks.applyFilters('svc_script_dependencies', []);
    const list = Array.isArray(deps) ? deps : [];
    const bad = list.filter((d) => !isScriptUrl(d));
    if (bad.length > 0) this.ctx.logger.warn({ deps: bad.map((d) => String(d).slice(0, 100)) }, 'svc_script_dependencies: entries that are not script URLs were skipped');
    return list.filter(isScriptUrl);
  }
}
