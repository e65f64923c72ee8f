import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { definePlugin } from '../../../../core';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import { setOptions } from '../../test/helpers';
import { GHOST_PREFIX } from '../ghost-files';

/** Test knobs for the filters the embed snippet goes through. */
const knobs = { deps: [] as unknown[], ghost: null as boolean | null, goalsUrl: null as string | null };
const filters = definePlugin({
  name: 'embed-filters',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_script_dependencies', (deps) => (knobs.deps.length ? (knobs.deps as string[]) : deps));
    ctx.hooks.addFilter('svc_obfuscate_filename', (enabled) => knobs.ghost ?? enabled);
    ctx.hooks.addFilter('svc_goals_script_url', (url) => knobs.goalsUrl ?? url);
    ctx.hooks.addFilter('svc_tracking_options', (options) => ({ ...options, options: { ...options.options, filtered: 'yes' } }));
  },
});

interface Embed {
  svc: { options: Record<string, unknown>; goals: { scriptUrl: string; active: Array<{ ID: number }> }; tracking: Record<string, unknown>; cache: Record<string, unknown> };
  rest: string;
  /** Script URLs the loader fetches, in order ([] when the tracker is inlined). */
  loads: string[];
  code: string;
}

/** Runs the prelude of an embed script to read what it sets, and its loader's URL list. */
function readEmbed(code: string): Embed {
  const prelude = /^window\.svc=(.*);window\.svc_rest_url=(".*?");\n/.exec(code);
  if (!prelude) throw new Error(`no prelude in ${code.slice(0, 200)}`);
  const loads = /\}\)\(document,(\[.*?\])(,function\(\)\{|\);\n$)/s.exec(code);
  return { svc: JSON.parse(prelude[1]!), rest: JSON.parse(prelude[2]!), loads: loads ? JSON.parse(loads[1]!) : [], code };
}

describe('serving the tracker scripts and the embed snippet', () => {
  let tk: TestKernel;
  let origin: string;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [filters], env: { SVC_ALLOWED_ORIGINS: 'https://site.example' } });
    origin = new URL(tk.url).origin;
  });
  afterAll(() => tk.close());
  afterEach(async () => {
    Object.assign(knobs, { deps: [], ghost: null, goalsUrl: null });
    await setOptions(tk, { privacy_level: 'cookie', enable_turbo_mode: false, ghost_mode: false, headless: false, combine_vars_and_script: false });
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(url.startsWith('http') ? url : `${tk.url}${url}`, { headers: { 'accept-encoding': 'identity', ...headers } });
  const embed = async (url = '/svc/embed.js') => readEmbed(await (await get(url)).text());

  it('serves the three scripts for other sites, with content-hash ETags, year-long caching of versioned URLs and gzip', async () => {
    for (const file of ['svc.min.js', 'svc-cookieless.min.js', 'svc-goals.min.js']) {
      const res = await get(`/svc/js/${file}`);
      const code = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      const hash = res.headers.get('etag')!.slice(1, -1);
      expect(hash).toMatch(/^[a-f0-9]{16}$/);
      expect(code).toMatch(/^\(\(\)=>\{/);
      expect((await get(`/svc/js/${file}?v=${hash}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await get(`/svc/js/${file}`, { 'if-none-match': `"${hash}"` })).status).toBe(304);
      const zipped = await fetch(`${tk.url}/svc/js/${file}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(await zipped.text()).toBe(code);
    }
    expect((await get('/svc/js/svc.js')).status).toBe(404);
    expect((await get('/svc/js/../embed.js')).status).toBe(200);
  });

  it('inlines the options of every page, the REST base and a loader of the versioned tracker', async () => {
    const admin = await tk.signedIn();
    const headers = { 'x-svc-nonce': await tk.nonce(admin) };
    const goal = async (g: Record<string, unknown>) => (await admin.post(`${tk.api}/goals`, { json: { status: 'active', ...g }, headers })).body.data.ID as number;
    const anywhere = await goal({ title: 'CTA', type: 'clicks', selector: '.cta' });
    const pricing = await goal({ title: 'Plans seen', type: 'views', selector: '#plans', url: '/pricing/' });
    await goal({ title: 'Visit', type: 'visits', url: '/thanks/' });

    const res = await get('/svc/embed.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const { svc, rest, loads } = readEmbed(await res.text());
    expect(Object.keys(svc).sort()).toEqual(['cache', 'goals', 'options', 'tracking']);
    expect(svc.tracking).toEqual({ isInitialHit: true, lastUpdateTimestamp: 0, beacon_url: `${tk.url}/svc/endpoint`, ajaxUrl: `${tk.url}/svc/ajax` });
    expect(svc.options).toMatchObject({ privacy_level: 'cookie', cookieless: 0, pageUrl: '', page_id: 0, cookie_retention_days: 30, filtered: 'yes' });
    expect(svc.cache).toEqual({ uid: null, fingerprint: null, isUserAgent: null, isDoNotTrack: null, useCookies: null });
    expect(svc.goals.active.map((g) => g.ID)).toEqual([anywhere, pricing]);
    const goals = (await get('/svc/js/svc-goals.min.js')).headers.get('etag')!.slice(1, -1);
    expect(svc.goals.scriptUrl).toBe(`${origin}/svc/js/svc-goals.min.js?v=${goals}`);
    expect(rest).toBe(tk.api);
    const tracker = (await get('/svc/js/svc.min.js')).headers.get('etag')!.slice(1, -1);
    expect(loads).toEqual([`${origin}/svc/js/svc.min.js?v=${tracker}`]);

    const etag = res.headers.get('etag')!;
    expect((await get('/svc/embed.js', { 'if-none-match': etag })).status).toBe(304);
    await setOptions(tk, { privacy_level: 'fingerprint' });
    const fingerprint = await get('/svc/embed.js', { 'if-none-match': etag });
    expect(fingerprint.status).toBe(200);
    const cookieless = (await get('/svc/js/svc-cookieless.min.js')).headers.get('etag')!.slice(1, -1);
    expect(readEmbed(await fingerprint.text()).loads).toEqual([`${origin}/svc/js/svc-cookieless.min.js?v=${cookieless}`]);
    const zipped = await fetch(`${tk.url}/svc/embed.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(readEmbed(await zipped.text()).svc.options.privacy_level).toBe('fingerprint');
  });

  it('puts options and tracker in one script when combine_vars_and_script is on, after the dependencies', async () => {
    await setOptions(tk, { combine_vars_and_script: true });
    const tracker = await (await get('/svc/js/svc.min.js')).text();
    const combined = await embed();
    expect(combined.loads).toEqual([]);
    expect(combined.code.endsWith(tracker)).toBe(true);

    knobs.deps = ['https://cdn.example/consent.js', '/local/helper.js', 'javascript:alert(1)', '//cdn.example/x.js', 42, 'https://cdn.example/"quote.js'];
    const withDeps = await embed();
    expect(withDeps.loads).toEqual(['https://cdn.example/consent.js', '/local/helper.js']);
    expect(withDeps.code).toContain(`,function(){${tracker}});\n`);
    expect(tk.logs.some((l) => String(l.msg).includes('svc_script_dependencies'))).toBe(true);

    await setOptions(tk, { combine_vars_and_script: false });
    const separate = await embed();
    expect(separate.loads.slice(0, 2)).toEqual(['https://cdn.example/consent.js', '/local/helper.js']);
    expect(separate.loads[2]).toMatch(/\/svc\/js\/svc\.min\.js\?v=[a-f0-9]{16}$/);
  });

  it('keeps a goals script URL that a filter changed, and escapes markup in the inlined options', async () => {
    knobs.goalsUrl = 'https://cdn.example/goals.js?x=</script><b>';
    const { svc, code } = await embed();
    expect(svc.goals.scriptUrl).toBe('https://cdn.example/goals.js?x=</script><b>');
    expect(code).not.toContain('</script>');
  });

  it('serves ghost files with obfuscated names from the data folder', async () => {
    await setOptions(tk, { ghost_mode: true });
    const panel = await tk.kernel.services.get('trackerScripts')!.snippet();
    const src = /src="([^"]+)"/.exec(panel!)![1]!;
    const name = new RegExp(`^${tk.url}/js/${GHOST_PREFIX}[a-f0-9]{8}\\.js$`);
    expect(src).toMatch(name);
    const res = await get(src);
    expect(res.status).toBe(200);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const ghostEmbed = readEmbed(await res.text());
    expect(ghostEmbed.loads).toHaveLength(1);
    expect(ghostEmbed.loads[0]).toMatch(new RegExp(`^${tk.url}/js/${GHOST_PREFIX}[a-f0-9]{8}\\.js\\?v=[a-f0-9]{16}$`));
    expect(ghostEmbed.svc.goals.scriptUrl).toMatch(new RegExp(`^${tk.url}/js/${GHOST_PREFIX}[a-f0-9]{8}\\.js\\?v=[a-f0-9]{16}$`));
    expect(ghostEmbed.code).not.toMatch(/svc\.min\.js|svc-goals/);
    const file = path.join(tk.dataDir, 'js', path.basename(src));
    expect(fs.readFileSync(file, 'utf8')).toBe(ghostEmbed.code);
    expect(gunzipSync(fs.readFileSync(`${file}.gz`)).toString('utf8')).toBe(ghostEmbed.code);

    const trackerRes = await get(ghostEmbed.loads[0]!);
    expect(trackerRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await trackerRes.text()).toBe(await (await get('/svc/js/svc.min.js')).text());
    const zipped = await fetch(ghostEmbed.loads[0]!, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect((await get(ghostEmbed.loads[0]!.split('?')[0]!)).headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect((await get(ghostEmbed.loads[0]!, { 'if-none-match': trackerRes.headers.get('etag')! })).status).toBe(304);
    expect((await get(`/js/${GHOST_PREFIX}00000000.js`)).status).toBe(404);
    expect((await get('/js/../svc/embed.js')).status).toBe(200);

    knobs.ghost = false;
    expect((await get(src)).status).toBe(404);
    expect(await tk.kernel.services.get('trackerScripts')!.snippet()).toBe(`<script src="${tk.url}/svc/embed.js" async></script>`);
    await setOptions(tk, { ghost_mode: false });
    knobs.ghost = true;
    expect(await tk.kernel.services.get('trackerScripts')!.snippet()).toBe(`<script src="${src}" async></script>`);
    expect((await get(src)).status).toBe(200);
  });

  it('answers 404 without a script in headless mode and says so on the settings page', async () => {
    await setOptions(tk, { headless: true, ghost_mode: true });
    const ghostSrc = tk.kernel.services.get('trackerScripts');
    expect(await ghostSrc!.snippet()).toBeNull();
    const res = await get('/svc/embed.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toMatch(/^\/\* svc: headless mode/);
    const admin = await tk.signedIn();
    const page = await admin.get('/svc-admin/settings');
    expect(page.text).toContain('Headless mode is on');
    expect(page.text).not.toContain('/svc/embed.js&quot;');
  });

  it('shows the exact script line on the settings page, deferred in turbo mode', async () => {
    const admin = await tk.signedIn();
    const line = (html: string) => /<textarea readonly[^>]*data-copy>([^<]*)<\/textarea>/.exec(html)?.[1];
    expect(line((await admin.get('/svc-admin/settings')).text)).toBe(`&lt;script src=&#34;${tk.url}/svc/embed.js&#34; async&gt;&lt;/script&gt;`);
    await setOptions(tk, { enable_turbo_mode: true });
    expect(line((await admin.get('/svc-admin/settings')).text)).toBe(`&lt;script src=&#34;${tk.url}/svc/embed.js&#34; defer&gt;&lt;/script&gt;`);
    expect(await tk.kernel.services.get('trackerScripts')!.snippet()).toBe(`<script src="${tk.url}/svc/embed.js" defer></script>`);
    expect((await tk.client().get('/svc-admin/settings')).status).toBe(302);
  });

  it('answers tracking requests with the request origin and credentials, never *, and varies by origin', async () => {
    const client = tk.client();
    const payload = JSON.stringify(JSON.stringify({ url: 'https://site.example/cors/', uid: 'c0ffee', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' }));
    const allowed = { origin: 'https://site.example', 'content-type': 'application/json' };
    const ok = await client.post(`${tk.api}/track`, { raw: payload, headers: allowed });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const bad = await client.post(`${tk.api}/track`, { raw: '{"url":', headers: allowed });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('https://site.example');
    const other = await client.post(`${tk.api}/track`, { raw: payload, headers: { ...allowed, origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toMatch(/Origin/);

    for (const url of [`${tk.api}/track`, `${tk.url}/svc/endpoint`, `${tk.url}/svc/ajax`]) {
      const preflight = await client.request('OPTIONS', url, {
        headers: { origin: 'https://site.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type', 'access-control-request-private-network': 'true' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://site.example');
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
      const refused = await client.request('OPTIONS', url, { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('access-control-allow-private-network')).toBeNull();
    }
    const report = await client.post('/svc/ajax', { form: { action: 'svc_tracking_error', status: '0' }, headers: { origin: 'https://site.example' } });
    expect(report.status).toBe(403);
    expect(report.headers.get('access-control-allow-origin')).toBe('https://site.example');
  });
});

describe('SVC_HEADLESS_DOMAIN', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_HEADLESS_DOMAIN: 'stats.example' } });
  });
  afterAll(() => tk.close());

  it('stops the script being offered whatever the headless setting says', async () => {
    await setOptions(tk, { headless: false });
    expect(await tk.kernel.services.get('trackerScripts')!.snippet()).toBeNull();
    expect((await fetch(`${tk.url}/svc/embed.js`)).status).toBe(404);
    expect((await (await tk.signedIn()).get('/svc-admin/settings')).text).toContain('Headless mode is on');
  });
});
