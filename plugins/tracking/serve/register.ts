import { Router } from 'express';
import { acceptsGzip, IMMUTABLE, type PluginContext, REVALIDATE } from '../../../core';
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

  const snippet = async (settings: ScriptSettings): Promise<string | null> => {
    if (settings.headless) return null;
    const src = settings.ghost ? ghost.url('embed') : `${ctx.config.baseUrl}${EMBED_PATH}`;
    return `<script src="${escapeAttribute(src)}" ${settings.turbo ? 'defer' : 'async'}></script>`;
  };

  const embedRouter = Router();
  embedRouter.get('/', async (req, res) => {
    const settings = await scriptSettings(ctx);
    if (settings.headless) return sendHeadless(res);
    sendScript(req, res, await embed.build(settings), EMBED_CACHE);
  });
  ctx.http.mount(EMBED_PATH, embedRouter, { quiet: true });

  const bundle = async (kind: ScriptKind): Promise<BuiltScript> => bundles.build(kind, (await ctx.assets.bundle(SCRIPTS[kind].entry)).code);
  const ghostRouter = Router();
  ghostRouter.get('/:file', async (req, res, next) => {
    const kind = ghost.kindOf(req.params.file ?? '');
    const settings = await scriptSettings(ctx);
    if (!kind || !settings.ghost) return next();
    if (settings.headless) return sendHeadless(res);
    const script = kind === 'embed' ? await embed.build(settings) : await bundle(kind);
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
      const line = await snippet(settings);
      if (line === null) {
        return { code: null, help: `Headless mode is on (the headless setting or SVC_HEADLESS_DOMAIN): no tracking script is offered. The tracked site sends hits to ${ctx.config.apiBase}/track itself.` };
      }
      return { code: line, help: 'Copy this line into the <head> of every page you want to count. It loads the tracker with the options set below (turbo mode: deferred, else async).' };
    },
  });

  const service: TrackerScriptsService = {
    snippet: async () => snippet(await scriptSettings(ctx)),
    bodyAttributes,
    addBodyAttributes,
  };
  ctx.services.provide('trackerScripts', service);
}
