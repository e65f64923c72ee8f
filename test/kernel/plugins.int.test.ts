import path from 'node:path';
import type { PluginManifest } from '../../core/plugins/manifest';
import { definePlugin } from '../../core/plugins/manifest';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const HELLO = path.resolve(__dirname, '../../examples/hello-plugin');

/** A plugin of `tier` with a REST route and a menu item, both named after it. */
const featurePlugin = (name: string, tier: PluginManifest['tier'], extra: Partial<PluginManifest> = {}) =>
  definePlugin({
    name,
    tier,
    register(ctx) {
      ctx.rest.route({ method: 'GET', path: `/${name}/ping`, capability: 'view_svc_statistics', handler: () => ({ pong: name }) });
      ctx.hooks.addFilter('svc_menu', (menu) => [...menu, { id: name, title: `Menu ${name}`, shareable: true, path: `/svc-admin/${name}` }]);
    },
    ...extra,
  });

async function basicClient(tk: TestKernel) {
  const admin = (await tk.kernel.users.findByLogin('admin'))!;
  const { password } = await tk.kernel.appPasswords.create(admin, 'test');
  return tk.client().withBasic('admin', password);
}

async function menuOf(tk: TestKernel): Promise<string> {
  const client = await tk.signedIn();
  return (await client.get('/svc-admin/account')).text;
}

describe('plugin tiers and selection', () => {
  let free: TestKernel;
  let creator: TestKernel;
  beforeAll(async () => {
    const plugins = [featurePlugin('basic', 'free'), featurePlugin('pro', 'creator'), featurePlugin('biz', 'business')];
    free = await createTestKernel({ inline: plugins, env: { SVC_LICENSE: 'free' } });
    creator = await createTestKernel({ inline: plugins, env: { SVC_LICENSE: 'creator' } });
  });
  afterAll(async () => {
    await free?.close();
    await creator?.close();
  });

  it('leaves out a plugin above the license: its route answers 404 and its menu item is gone', async () => {
    const client = await basicClient(free);
    expect((await client.get(`${free.api}/basic/ping`)).body).toEqual({ pong: 'basic' });
    const missing = await client.get(`${free.api}/pro/ping`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, code: 'svc_no_route' });
    const page = await menuOf(free);
    expect(page).toContain('Menu basic');
    expect(page).not.toContain('Menu pro');
    expect(free.kernel.plugins.find((p) => p.name === 'pro')).toMatchObject({ state: 'skipped', code: 'SVC_ERR_PLUGIN_LICENSE' });
    expect(free.kernel.isLoaded('pro')).toBe(false);
  });

  it('loads each tier the license includes and no more', async () => {
    const client = await basicClient(creator);
    expect((await client.get(`${creator.api}/pro/ping`)).body).toEqual({ pong: 'pro' });
    expect((await client.get(`${creator.api}/biz/ping`)).status).toBe(404);
    expect(creator.kernel.config.pro).toBe(true);
    expect(free.kernel.config.pro).toBe(false);
    const page = await menuOf(creator);
    expect(page).toContain('Menu pro');
    expect(page).not.toContain('Menu biz');
  });

  it('lists every plugin with its state and reason on the plugins page', async () => {
    const client = await free.signedIn();
    const page = await client.get('/svc-admin/plugins');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/data-plugin="pro"[\s\S]*?skipped[\s\S]*?SVC_ERR_PLUGIN_LICENSE[\s\S]*?needs the creator license/);
    expect(page.text).toMatch(/data-plugin="basic"[\s\S]*?loaded/);
  });
});

describe('SVC_PLUGINS and SVC_PLUGIN_PATHS', () => {
  it('loads only the plugins SVC_PLUGINS names and reports unknown names', async () => {
    const tk = await createTestKernel({
      inline: [featurePlugin('one', 'free'), featurePlugin('two', 'free')],
      env: { SVC_PLUGINS: 'two,ghost' },
    });
    try {
      const client = await basicClient(tk);
      expect((await client.get(`${tk.api}/one/ping`)).status).toBe(404);
      expect((await client.get(`${tk.api}/two/ping`)).status).toBe(200);
      expect(tk.kernel.plugins.find((p) => p.name === 'one')).toBeUndefined();
      expect(tk.kernel.plugins.find((p) => p.name === 'ghost')).toMatchObject({ state: 'failed', code: 'SVC_ERR_PLUGIN_UNKNOWN' });
    } finally {
      await tk.close();
    }
  });

  it('loads none with SVC_PLUGINS=none', async () => {
    const tk = await createTestKernel({ inline: [featurePlugin('one', 'free')], env: { SVC_PLUGINS: 'none' } });
    try {
      expect(tk.kernel.plugins).toEqual([]);
    } finally {
      await tk.close();
    }
  });

  describe('the example plugin from SVC_PLUGIN_PATHS', () => {
    let tk: TestKernel;
    const meddler = definePlugin({
      name: 'meddler',
      tier: 'free',
      requires: ['hello'],
      register(ctx) {
        ctx.hooks.addFilter('hello_greeting', () => {
          throw new Error('meddler broke');
        });
      },
    });
    const polite = definePlugin({
      name: 'polite',
      tier: 'free',
      requires: ['hello'],
      register(ctx) {
        ctx.hooks.addFilter('hello_greeting', (greeting) => `${greeting} Nice to see you.`, { priority: 20 });
      },
    });
    beforeAll(async () => {
      tk = await createTestKernel({ plugins: ['hello'], inline: [meddler, polite], env: { SVC_PLUGIN_PATHS: HELLO } });
    });
    afterAll(() => tk?.close());

    it('serves its route, its admin page and its menu item', async () => {
      expect(tk.kernel.plugins.find((p) => p.name === 'hello')).toMatchObject({ state: 'loaded', source: HELLO });
      const client = await basicClient(tk);
      const res = await client.get(`${tk.api}/hello`, { query: { name: 'Ana' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ greeting: 'Hello, Ana! Nice to see you.' });
      const browser = await tk.signedIn();
      const page = await browser.get('/svc-admin/hello');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Hello, admin! Nice to see you.');
      expect(page.text).toMatch(/<a href="\/svc-admin\/hello"[^>]*>Hello<\/a>/);
      expect(tk.kernel.commands.has('hello')).toBe(true);
    });

    it('keeps answering when a third-party filter on its hook throws, and logs the culprit', async () => {
      const client = await basicClient(tk);
      const res = await client.get(`${tk.api}/hello`, { query: { name: '<b>x</b>' } });
      expect(res.status).toBe(200);
      expect(res.body.greeting).toBe('Hello, <b>x</b>! Nice to see you.');
      expect(tk.logs.some((l) => l.plugin === 'meddler' && l.hook === 'hello_greeting' && l.level === 50)).toBe(true);
      const page = await (await tk.signedIn()).get('/svc-admin/hello');
      expect(page.text).not.toContain('<b>');
    });
  });
});

describe('dependencies and failures', () => {
  let tk: TestKernel;
  const order: string[] = [];
  const chain = (name: string, requires: string[]) =>
    definePlugin({ name, tier: 'free', requires, register: () => void order.push(name) });
  const broken = definePlugin({
    name: 'broken',
    tier: 'free',
    register(ctx) {
      ctx.rest.route({ method: 'GET', path: '/broken/ping', capability: null, handler: () => 'pong' });
      ctx.hooks.addFilter('svc_menu', (menu) => [...menu, { id: 'broken', title: 'Menu broken', shareable: false, path: '/svc-admin/broken' }]);
      ctx.hooks.addFilter('svc_mail_report_limit', () => 1000);
      ctx.admin.page({ path: '/broken', capability: 'read', get: () => ({ json: 'broken page' }) });
      ctx.cli.command({ name: 'broken', summary: '', usage: '', run: async () => 0 });
      ctx.settings.register({ key: 'broken_setting', label: 'Broken setting', section: 'general', type: 'text', default: '', parse: String });
      ctx.settings.panel({ key: 'broken_panel', title: 'Broken panel', render: async () => ({ code: null, help: '' }) });
      ctx.hooks.declareFilter('broken_filter' as never, ['value']);
      ctx.hooks.declareAction('broken_action' as never, []);
      throw new Error('register failed half-way');
    },
  });
  beforeAll(async () => {
    tk = await createTestKernel({
      inline: [chain('top', ['middle']), chain('middle', ['base']), chain('base', []), chain('orphan', ['ghost']), chain('needs-orphan', ['orphan']), broken, chain('after-broken', ['broken']), featurePlugin('healthy', 'free')],
    });
  });
  afterAll(() => tk?.close());

  it('registers plugins after the plugins they require', () => {
    expect(order.filter((n) => ['top', 'middle', 'base'].includes(n))).toEqual(['base', 'middle', 'top']);
  });

  it('refuses a plugin whose requirement is missing with SVC_ERR_PLUGIN_DEPENDENCY, and its dependents too', () => {
    const status = (name: string) => tk.kernel.plugins.find((p) => p.name === name);
    expect(status('orphan')).toMatchObject({ state: 'failed', code: 'SVC_ERR_PLUGIN_DEPENDENCY', reason: expect.stringContaining('ghost') });
    expect(status('needs-orphan')).toMatchObject({ state: 'failed', code: 'SVC_ERR_PLUGIN_DEPENDENCY' });
    expect(order).not.toContain('orphan');
    expect(order).not.toContain('needs-orphan');
    expect(tk.logs.some((l) => l.plugin === 'orphan' && l.code === 'SVC_ERR_PLUGIN_DEPENDENCY')).toBe(true);
  });

  it('leaves no route, hook, page, command, setting or declared hook of a plugin whose register throws; the others start', async () => {
    expect(tk.kernel.plugins.find((p) => p.name === 'broken')).toMatchObject({
      state: 'failed',
      code: 'SVC_ERR_PLUGIN_REGISTER',
      reason: 'register failed half-way',
    });
    expect(tk.kernel.plugins.find((p) => p.name === 'after-broken')).toMatchObject({ state: 'failed', code: 'SVC_ERR_PLUGIN_DEPENDENCY' });
    expect((await tk.client().get(`${tk.api}/broken/ping`)).status).toBe(404);
    expect(await tk.kernel.hooks.applyFilters('svc_mail_report_limit', 5)).toBe(5);
    expect(tk.kernel.commands.has('broken')).toBe(false);
    expect(tk.kernel.settings.list().map((f) => f.key)).not.toContain('broken_setting');
    expect(tk.kernel.settings.panels().map((p) => p.key)).not.toContain('broken_panel');
    expect(tk.kernel.hooks.actionArgs('broken_action')).toBeUndefined();
    await expect((tk.kernel.hooks.applyFilters as (name: string) => Promise<unknown>)('broken_filter')).rejects.toThrow('Unknown hook');
    const browser = await tk.signedIn();
    expect((await browser.get('/svc-admin/broken')).status).toBe(404);
    const menu = (await browser.get('/svc-admin/account')).text;
    expect(menu).not.toContain('Menu broken');
    expect(menu).toContain('Menu healthy');
    expect((await (await basicClient(tk)).get(`${tk.api}/healthy/ping`)).body).toEqual({ pong: 'healthy' });
  });
});
