import { unzipSync, strFromU8 } from 'fflate';
import { ManualClock } from '../../../../core';
import { NOW, TZ, at, insertPageview, insertSession, loadTraffic } from '../../../../core/statistics/test/traffic';
import type { HttpClient } from '../../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import { statisticsTab } from './tab-plugin';

const CURRENT = { date_start: '2026-01-12', date_end: '2026-01-14' };
type Row = Record<string, string | number>;

/** The CSV the route writes for these rows (no cell here needs quoting). */
const csvOf = (columns: string[], rows: Row[]) => [columns.join(','), ...rows.map((r) => columns.map((c) => r[c]).join(',')), ''].join('\r\n');

describe('datatable details: search, sort, pages, whole-set CSV and the export zip', () => {
  let tk: TestKernel;
  let api: HttpClient;
  let auth: string;
  const get = (path: string, query: Record<string, unknown>) => api.get(`${tk.api}/data/${path}`, { query });
  const data = async (path: string, query: Record<string, unknown>) => {
    const res = await get(path, query);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };

  beforeAll(async () => {
    tk = await createTestKernel({ inline: [statisticsTab], clock: new ManualClock(NOW), env: { SVC_TIMEZONE: TZ } });
    await loadTraffic(tk.kernel.db);
    // Pages whose addresses hold LIKE wildcards: a search for them matches them only.
    const session = await insertSession(tk.kernel.db, 'wild', at('2026-01-13T09:00'));
    for (const url of ['/100%-sure', '/a_b', '/axb', '/100-sure']) await insertPageview(tk.kernel.db, session, 'wild', at('2026-01-13T09:01'), { url, top: 5 });
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const password = (await tk.kernel.appPasswords.create(admin, 'tests')).password;
    api = tk.client().withBasic('admin', password);
    auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  });
  afterAll(() => tk.close());

  it('answers the documented array when no details parameter is named', async () => {
    const rows: Row[] = await data('datatable/pages', CURRENT);
    expect(Array.isArray(rows)).toBe(true);
    expect(rows.length).toBeGreaterThan(3);
  });

  it('sorts by each column both ways over all rows, with the total', async () => {
    const all: Row[] = await data('datatable/pages', { ...CURRENT, limit: 1000 });
    const columns = ['page_url', 'pageviews', 'sessions', 'bounce_rate', 'avg_time_on_page'];
    for (const column of columns) {
      for (const order of ['asc', 'desc'] as const) {
        const body = await data('datatable/pages', { ...CURRENT, details: 1, order_by: column, order, limit: 1000 });
        expect(body.total).toBe(all.length);
        expect([body.columns, body.dimensions]).toEqual([columns, ['page_url']]);
        const values = body.rows.map((r: Row) => r[column]);
        const sorted = [...values].sort((a, b) => (typeof a === 'number' ? a - b : String(a).localeCompare(String(b))) * (order === 'asc' ? 1 : -1));
        expect(values).toEqual(sorted);
        expect(new Set(body.rows.map((r: Row) => r.page_url))).toEqual(new Set(all.map((r) => r.page_url)));
      }
    }
  });

  it('pages through the rows without overlap and reports the same total on every page', async () => {
    const full = await data('datatable/pages', { ...CURRENT, details: 1, order_by: 'pageviews', limit: 1000 });
    const seen: Row[] = [];
    for (let offset = 0; offset < full.total; offset += 3) {
      const page = await data('datatable/pages', { ...CURRENT, order_by: 'pageviews', limit: 3, offset });
      expect(page).toMatchObject({ total: full.total, offset, limit: 3 });
      seen.push(...page.rows);
    }
    expect(seen).toEqual(full.rows);
    expect((await data('datatable/pages', { ...CURRENT, limit: 3, offset: full.total })).rows).toEqual([]);
  });

  it('searches the dimension as plain text: wildcards match themselves, case does not matter', async () => {
    const urls = async (search: string) => (await data('datatable/pages', { ...CURRENT, search, order_by: 'page_url', order: 'asc' })).rows.map((r: Row) => r.page_url);
    expect(await urls('%')).toEqual(['/100%-sure']);
    expect(await urls('a_b')).toEqual(['/a_b']);
    expect(await urls('_')).toEqual(['/a_b']);
    expect(await urls('100')).toEqual(['/100-sure', '/100%-sure']);
    expect(await urls('SURE')).toEqual(['/100-sure', '/100%-sure']);
    const body = await data('datatable/pages', { ...CURRENT, search: 'no such page' });
    expect(body).toMatchObject({ rows: [], total: 0 });
  });

  it('writes the whole searched and sorted set as CSV, whatever the page', async () => {
    const query = { ...CURRENT, search: 'sure', order_by: 'page_url', order: 'asc' };
    const { rows, columns } = await data('datatable/pages', { ...query, limit: 1 });
    const all = (await data('datatable/pages', { ...query, limit: 1000 })).rows;
    expect(rows).toHaveLength(1);
    const res = await get('datatable/pages', { ...query, limit: 1, offset: 1, format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(csvOf(columns, all));
  });

  it('answers 400 naming the field for each bad details parameter', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ order_by: 'nope' }, 'order_by'],
      [{ order_by: 'pageviews', order: 'up' }, 'order'],
      [{ offset: '-1' }, 'offset'],
      [{ offset: 'x' }, 'offset'],
      [{ offset: '10000' }, 'offset'],
      [{ search: 'x'.repeat(256) }, 'search'],
      [{ details: 1, limit: 0 }, 'limit'],
      [{ details: 1, format: 'xml' }, 'format'],
    ];
    for (const [query, field] of bad) {
      const res = await get('datatable/pages', { ...CURRENT, ...query });
      expect([res.status, res.body.code, res.body.data?.field]).toEqual([400, 'svc_invalid_param', field]);
    }
    expect((await get('devices', { ...CURRENT, format: 'xml' })).body.data?.field).toBe('format');
    // A data type without rows to write keeps ignoring `format`, as before.
    const compare = await get('compare', { ...CURRENT, format: 'csv' });
    expect([compare.status, typeof compare.body.data.current]).toEqual([200, 'object']);
  });

  it('writes devices, browsers and goals as CSV', async () => {
    for (const [path, query] of [['devices', {}], ['devices', { group_by: 'browser' }], ['goals', {}]] as const) {
      const rows: Row[] = await data(path, { ...CURRENT, ...query });
      const res = await get(path, { ...CURRENT, ...query, format: 'csv' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/csv');
      expect(res.text.split('\r\n').filter(Boolean)).toHaveLength(rows.length + 1);
      if (rows[0]) expect(res.text).toContain(String(Object.values(rows[0])[0]));
    }
  });

  it('exports every table of the tab as a zip of CSVs for the period and filters', async () => {
    const filters = JSON.stringify({ device: { operator: 'is_not', value: 'mobile' } });
    const url = new URL(`${tk.api}/data/export/statistics`);
    for (const [k, v] of Object.entries({ ...CURRENT, filters })) url.searchParams.set(k, v);
    const res = await fetch(url, { headers: { authorization: auth } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="statistics-2026-01-12-2026-01-14.zip"');
    const files = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer()))).map(([name, bytes]) => [name, strFromU8(bytes)]));
    expect(Object.keys(files).sort()).toEqual(['browser-versions.csv', 'browsers.csv', 'countries.csv', 'devices.csv', 'entry-pages.csv', 'exit-pages.csv', 'goals.csv', 'not-found-pages.csv', 'operating-systems.csv', 'os-versions.csv', 'pages.csv', 'platforms.csv', 'referrers.csv', 'referring-domains.csv', 'screen-sizes.csv']);
    for (const [name, path, query] of [
      ['pages.csv', 'datatable/pages', {}],
      ['referrers.csv', 'datatable/referrers', {}],
      ['not-found-pages.csv', 'datatable/not-found-pages', {}],
      ['devices.csv', 'devices', {}],
      ['browsers.csv', 'devices', { group_by: 'browser' }],
      ['goals.csv', 'goals', {}],
    ] as const) {
      const csv = await get(path, { ...CURRENT, ...query, filters, limit: 1000, format: 'csv' });
      expect([name, files[name]]).toEqual([name, csv.text]);
    }
    expect(files['pages.csv']).not.toBe((await get('datatable/pages', { ...CURRENT, limit: 1000, format: 'csv' })).text);
  });

  it('names the bad parameter of an export', async () => {
    const res = await get('export/statistics', { date_start: 'yesterday', date_end: '2026-01-14' });
    expect([res.status, res.body.data?.field]).toEqual([400, 'date_start']);
  });
});
