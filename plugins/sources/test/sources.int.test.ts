import { strFromU8, unzipSync } from 'fflate';
import { ManualClock } from '../../../core';
import { NOW, TZ, at, insertPageview, insertSession, loadTraffic } from '../../../core/statistics/test/traffic';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

const CURRENT = { date_start: '2026-01-12', date_end: '2026-01-14' };

describe('sources plugin', () => {
  let tk: TestKernel;
  let api: HttpClient;
  let auth = '';
  const data = async (path: string, query: Record<string, unknown> = {}) => {
    const res = await api.get(`${tk.api}/data/${path}`, { query });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const table = (name: string) => tk.kernel.db.quote(tk.kernel.db.table(name));

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['sources'], clock: new ManualClock(NOW), env: { SVC_TIMEZONE: TZ, SVC_LICENSE: 'creator' } });
    await loadTraffic(tk.kernel.db);
    const db = tk.kernel.db;
    await db.execute(`UPDATE ${table('statistics')} SET parameters = ? WHERE time = ? AND page_url = '/'`, ['utm_source=Newsletter&utm_medium=email&utm_campaign=spring', at('2026-01-12T10:00')]);
    await db.execute(`UPDATE ${table('statistics')} SET parameters = ? WHERE time = ?`, ['UTM_SOURCE=twitter&utm_campaign=launch&x=1', at('2026-01-13T15:00')]);
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const password = (await tk.kernel.appPasswords.create(admin, 'tests')).password;
    api = tk.client().withBasic('admin', password);
    auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  });
  afterAll(() => tk.close());

  it('fills the campaigns from tracked query strings, by catch-up and on new hits, once each', async () => {
    await tk.kernel.hooks.doAction('svc_every_hour');
    const count = async () => Number((await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table('campaigns')}`))[0]!.n);
    expect(await count()).toBe(2);
    await tk.kernel.hooks.doAction('svc_every_hour');
    expect(await count()).toBe(2);
    const session = await insertSession(tk.kernel.db, 'Z', at('2026-01-14T20:00'));
    const id = await insertPageview(tk.kernel.db, session, 'Z', at('2026-01-14T20:00'), { url: '/landing', top: 3 });
    const parameters = 'utm_source=twitter&utm_medium=social&utm_campaign=launch';
    await tk.kernel.db.execute(`UPDATE ${table('statistics')} SET parameters = ? WHERE ID = ?`, [parameters, id]);
    await tk.kernel.hooks.doAction('svc_after_create_statistic', id, {
      page_url: '/landing', parameters, fragment: '', page_id: 0, page_type: 'page', time: at('2026-01-14T20:00'), uid: 'Z', time_on_page: 3, session_id: session,
    });
    expect(await count()).toBe(3);
    await tk.kernel.hooks.doAction('svc_every_hour');
    expect(await count()).toBe(3);
  });

  it('lists campaigns and filters by campaign fields', async () => {
    expect(await data('datatable/campaigns', { ...CURRENT, metrics: 'sessions,pageviews' })).toEqual([
      { source: 'Newsletter', medium: 'email', campaign: 'spring', sessions: 1, pageviews: 1 },
      { source: 'twitter', medium: '', campaign: 'launch', sessions: 1, pageviews: 1 },
      { source: 'twitter', medium: 'social', campaign: 'launch', sessions: 1, pageviews: 1 },
    ]);
    expect(await data('datatable/campaigns', { ...CURRENT, metrics: 'pageviews', group_by: 'source', filters: { utm_source: 'twitter' } })).toEqual([
      { source: 'twitter', pageviews: 2 },
    ]);
    // The operators of the dashboard's filter chips (README "Filter operators") work on the tab's panels too.
    expect(await data('datatable/campaigns', { ...CURRENT, metrics: 'pageviews', group_by: 'source', filters: JSON.stringify([{ key: 'utm_source', operator: 'is_not', value: ['twitter'] }]) })).toEqual([
      { source: 'Newsletter', pageviews: 1 },
    ]);
    expect(await data('datatable/campaigns', { ...CURRENT, metrics: 'pageviews', group_by: 'source', filters: JSON.stringify([{ key: 'utm_source', operator: 'contains', value: ['news', 'twit'] }]) })).toEqual([
      { source: 'twitter', pageviews: 2 },
      { source: 'Newsletter', pageviews: 1 },
    ]);
    const res = await api.get(`${tk.api}/data/datatable/campaigns`, { query: { ...CURRENT, group_by: 'page_url' } });
    expect(res.status).toBe(400);
  });

  it('classifies referrers into channels and groups them by domain', async () => {
    expect(await data('channels', CURRENT)).toEqual([
      { channel: 'search', sessions: 2, pageviews: 4, bounce_rate: 50, share: 33.33 },
      { channel: 'social', sessions: 1, pageviews: 2, bounce_rate: 0, share: 16.67 },
      { channel: 'email', sessions: 0, pageviews: 0, bounce_rate: 0, share: 0 },
      { channel: 'direct', sessions: 3, pageviews: 4, bounce_rate: 66.67, share: 50 },
      { channel: 'other', sessions: 0, pageviews: 0, bounce_rate: 0, share: 0 },
    ]);
    expect(await data('datatable/referrer-domains', CURRENT)).toEqual([
      { domain: '', channel: 'direct', sessions: 3, pageviews: 4, bounce_rate: 66.67 },
      { domain: 'google.com', channel: 'search', sessions: 2, pageviews: 4, bounce_rate: 50 },
      { domain: 't.co', channel: 'social', sessions: 1, pageviews: 2, bounce_rate: 0 },
    ]);
    // Every panel of the tab takes every filter the tab offers, the campaign fields included.
    expect(await data('datatable/referrer-domains', { ...CURRENT, filters: 'campaign:spring' })).toEqual([
      { domain: 'google.com', channel: 'search', sessions: 1, pageviews: 1, bounce_rate: 0 },
    ]);
    for (const path of ['channels', 'world-map', 'datatable/campaigns', 'datatable/regions', 'datatable/cities', 'datatable/referrer-domains']) {
      const res = await api.get(`${tk.api}/data/${path}`, { query: { ...CURRENT, filters: JSON.stringify({ campaign: 'spring', source: 'Newsletter', country: 'NL', region: '', city: '' }) } });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const csv = await api.get(`${tk.api}/data/datatable/referrer-domains`, { query: { ...CURRENT, metrics: 'sessions', format: 'csv' } });
    expect(csv.text).toBe('domain,sessions,channel\r\n,3,direct\r\ngoogle.com,2,search\r\nt.co,1,social\r\n');
  });

  it('reports countries for the map, regions and cities', async () => {
    expect(await data('world-map', CURRENT)).toEqual([
      { country: 'NL', sessions: 4, pageviews: 7 },
      { country: 'DE', sessions: 2, pageviews: 3 },
    ]);
    expect(await data('datatable/cities', { ...CURRENT, metrics: 'sessions' })).toEqual([
      { country: 'NL', city: '', sessions: 3 },
      { country: 'DE', city: '', sessions: 2 },
      { country: 'NL', city: 'Amsterdam', sessions: 1 },
    ]);
    expect(await data('datatable/regions', { ...CURRENT, metrics: 'sessions', filters: { country: 'NL' } })).toEqual([
      { country: 'NL', region: '', sessions: 3 },
      { country: 'NL', region: 'North Holland', sessions: 1 },
    ]);
  });

  it('removes the campaigns of a removed site\'s pageviews, and no other', async () => {
    const campaigns = async () => (await tk.kernel.db.select<{ campaign: string }>(`SELECT campaign FROM ${table('campaigns')} ORDER BY ID`)).map((r) => r.campaign);
    expect(await campaigns()).toEqual(['spring', 'launch', 'launch']);
    const site = await tk.kernel.sites.add({ name: 'Landing pages', domain: 'landing.example', timezone: TZ });
    await tk.kernel.db.execute(`UPDATE ${table('statistics')} SET site_id = ? WHERE page_url = '/landing'`, [site.id]);
    await tk.kernel.sites.remove(site.id);
    expect(await campaigns()).toEqual(['spring', 'launch']);
  });

  it('prunes campaigns with the raw hits on svc_daily', async () => {
    await tk.kernel.settings.save({ statistics_retention_days: '3' });
    await tk.kernel.hooks.doAction('svc_daily');
    const [row] = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table('campaigns')}`);
    expect(Number(row!.n)).toBe(0);
  });

  it('serves the sources page and menu item', async () => {
    const client = await tk.signedIn();
    const page = await client.get('/svc-admin/sources');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="svc-sources"');
    expect(page.text).toMatch(/<a href="\/svc-admin\/sources"/);
  });

  it('searches and sorts a table on its own columns and exports every table of the tab as a zip', async () => {
    const details = await data('datatable/referrer-domains', { ...CURRENT, metrics: 'sessions', order_by: 'channel', order: 'desc' });
    expect(details).toMatchObject({ total: 3, columns: ['domain', 'sessions', 'channel'], dimensions: ['domain'] });
    expect(details.rows.map((r: { channel: string }) => r.channel)).toEqual(['social', 'search', 'direct']);
    const found = await data('datatable/referrer-domains', { ...CURRENT, metrics: 'sessions', search: '.CO', order_by: 'domain', order: 'asc' });
    expect(found.rows.map((r: { domain: string }) => r.domain)).toEqual(['google.com', 't.co']);
    const res = await fetch(`${tk.api}/data/export/sources?date_start=${CURRENT.date_start}&date_end=${CURRENT.date_end}`, { headers: { authorization: auth } });
    expect(res.status).toBe(200);
    const files = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer()))).map(([name, bytes]) => [name, strFromU8(bytes)]));
    expect(Object.keys(files).sort()).toEqual(['campaigns.csv', 'cities.csv', 'referrer-domains.csv', 'regions.csv']);
    expect(files['referrer-domains.csv']).toBe((await api.get(`${tk.api}/data/datatable/referrer-domains`, { query: { ...CURRENT, limit: 1000, format: 'csv' } })).text);
  });
});

describe('sources plugin below its license', () => {
  it('is absent on the free license', async () => {
    const tk = await createTestKernel({ plugins: ['sources'] });
    try {
      const admin = (await tk.kernel.users.findByLogin('admin'))!;
      const api = tk.client().withBasic('admin', (await tk.kernel.appPasswords.create(admin, 'x')).password);
      const res = await api.get(`${tk.api}/data/channels`);
      expect(res.status).toBe(404);
      expect(tk.kernel.plugins.find((p) => p.name === 'sources')?.state).toBe('skipped');
    } finally {
      await tk.close();
    }
  });

});
