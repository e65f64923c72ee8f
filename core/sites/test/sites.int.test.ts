import { ManualClock } from '../../clock';
import { definePlugin } from '../../plugins/manifest';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { DEFAULT_SITE_ID } from '../types';

const removals: Array<{ siteId: number; rowsLeft: number }> = [];

const probe = definePlugin({
  name: 'site-probe',
  tier: 'free',
  register(ctx) {
    ctx.sites.onRemove(async (siteId) => {
      const rows = await ctx.db.select(`SELECT 1 FROM ${ctx.db.quote(ctx.db.table('probe_rows'))} WHERE site_id = ?`, [siteId]);
      removals.push({ siteId, rowsLeft: rows.length });
    });
    ctx.rest.route({
      method: 'GET',
      path: '/site-probe',
      capability: 'view_svc_statistics',
      handler: async (request) => ({ site: request.site.id, current: (await ctx.sites.current()).id }),
    });
    ctx.rest.route({ method: 'POST', path: '/site-probe', capability: null, handler: (request) => ({ site: request.site.id }) });
  },
});

describe('sites', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [probe] });
    await tk.kernel.db.execute(`CREATE TABLE ${tk.kernel.db.quote(tk.kernel.db.table('probe_rows'))} (id INTEGER NOT NULL, site_id INTEGER NOT NULL DEFAULT 1)`);
  });
  afterAll(() => tk.close());

  it('has the default site from the first start, named after the host, in the configured time zone', async () => {
    const first = await tk.kernel.sites.default();
    expect(first).toEqual({ id: DEFAULT_SITE_ID, name: new URL(tk.url).host, domain: null, aliases: [], timezone: 'UTC' });
  });

  it('adds, finds by id, domain and host, updates and removes sites', async () => {
    const sites = tk.kernel.sites;
    const shop = await sites.add({ name: 'Shop', domain: 'Shop.Example.COM:443', aliases: ['www.shop.example.org'], timezone: 'Europe/Berlin' });
    expect(shop).toMatchObject({ name: 'Shop', domain: 'shop.example.com', aliases: ['shop.example.org'], timezone: 'Europe/Berlin' });
    expect((await sites.resolve(String(shop.id))).id).toBe(shop.id);
    expect((await sites.resolve('shop.example.com')).id).toBe(shop.id);
    expect((await sites.resolve(undefined)).id).toBe(DEFAULT_SITE_ID);
    await expect(sites.resolve('nowhere.example')).rejects.toMatchObject({ code: 'svc_unknown_site', status: 404 });
    await expect(sites.resolve(999)).rejects.toMatchObject({ code: 'svc_unknown_site' });
    expect(await sites.forHost('WWW.shop.example.org')).toMatchObject({ id: shop.id });
    // The default site has no domain yet, so it takes any other host.
    expect(await sites.forHost('elsewhere.example')).toMatchObject({ id: DEFAULT_SITE_ID });
    await sites.update(DEFAULT_SITE_ID, { domain: 'blog.example.com' });
    expect(await sites.forHost('elsewhere.example')).toBe('unknown');
    await expect(sites.add({ name: 'Copy', domain: 'blog.example.com' })).rejects.toMatchObject({ status: 400, data: { field: 'domain' } });
    await expect(sites.add({ name: 'Bad', domain: 'not a host', timezone: 'Mars/Base' })).rejects.toMatchObject({
      data: { field: 'domain', problems: [{ field: 'domain' }, { field: 'timezone' }] },
    });
    await expect(sites.remove(DEFAULT_SITE_ID)).rejects.toMatchObject({ status: 400 });
    await sites.remove(shop.id);
    expect(await sites.get(shop.id)).toBeNull();
    await sites.update(DEFAULT_SITE_ID, { domain: null });
  });

  it('deletes the rows of a removed site from every table with a site_id, after the onRemove work', async () => {
    const db = tk.kernel.db;
    const table = db.quote(db.table('probe_rows'));
    const gone = await tk.kernel.sites.add({ name: 'Gone', domain: 'gone.example' });
    await db.execute(`INSERT INTO ${table} (id, site_id) VALUES (1, 1), (2, ?), (3, ?)`, [gone.id, gone.id]);
    await tk.kernel.sites.remove(gone.id);
    expect(removals.at(-1)).toEqual({ siteId: gone.id, rowsLeft: 2 });
    expect(await db.select(`SELECT id, site_id FROM ${table}`)).toEqual([{ id: 1, site_id: 1 }]);
  });

  it('shows a site added on another node within 5 seconds', async () => {
    const clock = new ManualClock();
    const other = await createTestKernel({ database: tk.database, clock });
    try {
      const before = (await other.kernel.sites.list()).length;
      const added = await tk.kernel.sites.add({ name: 'From node A', domain: 'node-a.example' });
      expect(await other.kernel.sites.list()).toHaveLength(before);
      clock.advance(5);
      expect(await other.kernel.sites.get(added.id)).toMatchObject({ name: 'From node A' });
      expect(await other.kernel.sites.forHost('node-a.example')).toMatchObject({ id: added.id });
      await tk.kernel.sites.remove(added.id);
    } finally {
      await other.close();
    }
  });

  it('gives every REST route the site of its `site` argument, from the query or the JSON body', async () => {
    const other = await tk.kernel.sites.add({ name: 'Other', domain: 'other.example' });
    const client = await tk.signedIn();
    const nonce = await tk.nonce(client);
    const headers = { 'x-svc-nonce': nonce };
    expect((await client.get(`${tk.api}/site-probe`, { headers })).body).toEqual({ site: 1, current: 1 });
    expect((await client.get(`${tk.api}/site-probe?site=other.example`, { headers })).body).toEqual({ site: other.id, current: other.id });
    expect((await client.get(`${tk.api}/site-probe?site=${other.id}`, { headers })).body).toEqual({ site: other.id, current: other.id });
    const unknown = await client.get(`${tk.api}/site-probe?site=404`, { headers });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'svc_unknown_site' });
    // A malformed site argument is an unknown site, never a server error.
    for (const bad of ['?site=-1', '?site=0', '?site=1.5', '?site[]=1&site[]=2', `?site=${'x'.repeat(300)}`, '?site=%00']) {
      const res = await client.get(`${tk.api}/site-probe${bad}`, { headers });
      expect({ bad, status: res.status, code: (res.body as { code?: string }).code }).toEqual({ bad, status: 404, code: 'svc_unknown_site' });
    }
    for (const site of [true, {}, [other.id], 1.5, -1]) {
      const res = await tk.client().post(`${tk.api}/site-probe`, { json: { site } });
      expect({ site, status: res.status, code: (res.body as { code?: string }).code }).toEqual({ site, status: 404, code: 'svc_unknown_site' });
    }
    expect((await tk.client().post(`${tk.api}/site-probe`, { json: { site: other.id } })).body).toEqual({ site: other.id });
  });
});
