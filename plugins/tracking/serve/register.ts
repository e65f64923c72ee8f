import { Router } from 'express';
import { acceptsGzip, DEFAULT_SITE_ID, IMMUTABLE, type PluginContext, REVALIDATE } from '../../../core';
import { EmbedScripts } from './embed';
import { GHOST_PATH, GhostFiles } from './ghost-files';
import { addBodyAttributes, bodyAttributes } from './page-type';
import { EMBED_CACHE, type BuiltScript, ScriptCache, scriptHeaders, sendHeadless, sendScript } from './script-response';
import { type ScriptSettings, materialiseScriptSettings, scriptSettings } from './script-settings';
import { EMBED_PATH, PUBLIC_SCRIPT_HEADERS, SCRIPTS, SCRIPTS_PATH, type ScriptKind } from './scripts';
import type { TrackerScriptsService } from './service';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The browser tracker (tracking.md §2.6, §3.4, §5; URLs in the README's "Tracking"): the three
 * scripts below `{base_url}/svc/js/`, the embed snippet `{base_url}/svc/embed.js`,
 * ghost files, the snippet line on the settings page and the `trackerScripts`
 * service (snippet, page typing).
 */
export async function registerTrackerScripts(ctx: PluginContext): Promise<void> {
  await materialiseScriptSettings(ctx);
  const ghost = new GhostFiles(ctx.config.baseUrl, ctx.config.dataDir);
  const embed = new EmbedScripts(ctx, ghost);
  const bundles = new ScriptCache();
  for (const { entry, file } of Object.values(SCRIPTS)) ctx.assets.register({ entry, path: `${SCRIPTS_PATH}/${file}` });

  // The asset service serves the bundles; other sites' pages must be allowed to load them.
  const scripts = Router();
  scripts.use((_req, res, next) => {
    res.set(PUBLIC_SCRIPT_HEADERS);
    next();
  });
  ctx.http.mount(SCRIPTS_PATH, scripts, { quiet: true });

  /** The line of a site: another site than the default one names itself in the URL (ghost files serve the default site). */
  const snippet = async (settings: ScriptSettings, siteId: number): Promise<string | null> => {
    if (settings.headless) return null;
    const src =
      siteId !== DEFAULT_SITE_ID ? `${ctx.config.baseUrl}${EMBED_PATH}?site=${siteId}` : settings.ghost ? ghost.url('embed') : `${ctx.config.baseUrl}${EMBED_PATH}`;
    return `<script src="${escapeAttribute(src)}" ${settings.turbo ? 'defer' : 'async'}></script>`;
  };

  const embedRouter = Router();
  embedRouter.get('/', async (req, res) => {
    const settings = await scriptSettings(ctx);
    if (settings.headless) return sendHeadless(res);
    const site = typeof req.query.site === 'string' ? await ctx.sites.resolve(req.query.site).catch(() => null) : req.query.site === undefined ? await ctx.sites.default() : null;
    if (!site) return res.status(404).type('text/plain').send('No such site.');
    sendScript(req, res, await embed.build(settings, site.id), EMBED_CACHE);
  });
  ctx.http.mount(EMBED_PATH, embedRouter, { quiet: true });

  const bundle = async (kind: ScriptKind): Promise<BuiltScript> => bundles.build(kind, (await ctx.assets.bundle(SCRIPTS[kind].entry)).code);
  const ghostRouter = Router();
  ghostRouter.get('/:file', async (req, res, next) => {
    const kind = ghost.kindOf(req.params.file ?? '');
    const settings = await scriptSettings(ctx);
    if (!kind || !settings.ghost) return next();
    if (settings.headless) return sendHeadless(res);
    const script = kind === 'embed' ? await embed.build(settings, DEFAULT_SITE_ID) : await bundle(kind);
    const files = await ghost.publish(kind, script);
    const versioned = kind !== 'embed' && req.query.v === script.etag.slice(1, -1);
    if (scriptHeaders(req, res, script.etag, kind === 'embed' ? EMBED_CACHE : versioned ? IMMUTABLE : REVALIDATE)) return;
    const gzip = acceptsGzip(req);
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.sendFile(gzip ? files.gzipped : files.plain, { etag: false, lastModified: false, cacheControl: false });
  });
  ctx.http.mount(GHOST_PATH, ghostRouter, { quiet: true });

  ctx.settings.panel({
    key: 'tracking_snippet',
    title: 'Tracking code',
    render: async () => {
      const settings = await scriptSettings(ctx);
      const line = await snippet(settings, (await ctx.sites.current()).id);
      if (line === null) {
        return { code: null, help: `Headless mode is on (the headless setting or SVC_HEADLESS_DOMAIN): no tracking script is offered. The tracked site sends hits to ${ctx.config.apiBase}/track itself.` };
      }
      return { code: line, help: 'Copy this line into the <head> of every page you want to count. It loads the tracker with the options set below (turbo mode: deferred, else async).' };
    },
  });

  const service: TrackerScriptsService = {
    snippet: async (siteId = DEFAULT_SITE_ID) => snippet(await scriptSettings(ctx), siteId),
    bodyAttributes,
    addBodyAttributes,
  };
  ctx.services.provide('trackerScripts', service);
}
