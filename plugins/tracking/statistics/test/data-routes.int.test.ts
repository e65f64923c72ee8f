import { ManualClock } from '../../../../core';
import { NOW, TZ, at, insertPageview, loadTraffic } from '../../../../core/statistics/test/traffic';
import type { HttpClient } from '../../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../../test/helpers/test-kernel';
import { statisticsTab } from './tab-plugin';

const CURRENT = { date_start: '2026-01-12', date_end: '2026-01-14' };

describe('statistics data routes on the hand-built traffic set', () => {
  let tk: TestKernel;
  let api: HttpClient;
  const data = async (path: string, query: Record<string, unknown> = {}) => {
    const res = await api.get(`${tk.api}/data/${path}`, { query });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };

  beforeAll(async () => {
    tk = await createTestKernel({ inline: [statisticsTab], clock: new ManualClock(NOW), env: { SVC_TIMEZONE: TZ } });
    await loadTraffic(tk.kernel.db);
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    api = tk.client().withBasic('admin', (await tk.kernel.appPasswords.create(admin, 'tests')).password);
  });
  afterAll(() => tk.close());

  it('compares the period with the previous one, excluding 404 hits', async () => {
    const body = await data('compare', CURRENT);
    expect(body.current).toEqual({
      visitors: 3, pageviews: 9, sessions: 5, bounce_rate: 40, avg_time_on_page: 27.78, avg_session_duration: 50, first_time_visitors: 2, conversions: 2,
    });
    expect(body.previous).toEqual({
      visitors: 3, pageviews: 4, sessions: 3, bounce_rate: 66.67, avg_time_on_page: 40, avg_session_duration: 53.33, first_time_visitors: 3, conversions: 0,
    });
    expect(body.change).toMatchObject({ pageviews: 125, visitors: 0, sessions: 66.67, bounce_rate: -40, conversions: null });
    expect(body.periods).toEqual({ current: { date_start: '2026-01-12', date_end: '2026-01-14' }, previous: { date_start: '2026-01-09', date_end: '2026-01-11' } });
  });

  it('answers the virtual status filter: 404 only, 200 all but 404, all', async () => {
    const metrics = ['pageviews', 'visitors', 'sessions', 'bounces'];
    const of = async (status: string) => (await data('compare', { ...CURRENT, metrics, filters: { status } })).current;
    expect(await of('404')).toEqual({ pageviews: 2, visitors: 2, sessions: 2, bounces: 1 });
    expect(await of('200')).toEqual({ pageviews: 9, visitors: 3, sessions: 5, bounces: 2 });
    expect(await of('all')).toEqual({ pageviews: 11, visitors: 4, sessions: 6, bounces: 3 });
  });

  it('groups days at the site timezone midnight and fills empty buckets', async () => {
    const body = await data('insights', { ...CURRENT, group_by: 'day', metrics: ['pageviews', 'visitors'] });
    expect(body.interval).toBe('day');
    expect(body.labels).toEqual(['2026-01-12', '2026-01-13', '2026-01-14']);
    expect(body.timestamps).toEqual([at('2026-01-12T00:00'), at('2026-01-13T00:00'), at('2026-01-14T00:00')]);
    expect(body.datasets).toEqual({ pageviews: [4, 3, 2], visitors: [2, 2, 1] });
  });

  it('adds the series of the previous period or of the same days a year earlier when asked', async () => {
    const previous = await data('insights', { ...CURRENT, group_by: 'day', metrics: 'pageviews,visitors', compare: 'previous' });
    expect(previous.datasets).toEqual({ pageviews: [4, 3, 2], visitors: [2, 2, 1] });
    expect(previous.comparison).toMatchObject({ date_start: '2026-01-09', date_end: '2026-01-11', labels: ['2026-01-09', '2026-01-10', '2026-01-11'] });
    const days = await data('insights', { date_start: '2026-01-09', date_end: '2026-01-11', group_by: 'day', metrics: 'pageviews,visitors' });
    expect(previous.comparison.datasets).toEqual(days.datasets);
    expect(previous.comparison.datasets.pageviews.reduce((a: number, b: number) => a + b, 0)).toBe(4);
    const year = await data('insights', { ...CURRENT, metrics: 'pageviews', compare: 'year' });
    expect(year.comparison).toEqual({
      date_start: '2025-01-12', date_end: '2025-01-14', labels: ['2025-01-12', '2025-01-13', '2025-01-14'],
      timestamps: [at('2025-01-12T00:00'), at('2025-01-13T00:00'), at('2025-01-14T00:00')], datasets: { pageviews: [0, 0, 0] },
    });
    expect((await data('insights', CURRENT)).comparison).toBeUndefined();
  });

  it('groups by hour, week and month, and picks the interval from the range', async () => {
    const day = await data('insights', { date_start: '2026-01-12', date_end: '2026-01-12', metrics: 'pageviews' });
    expect(day.interval).toBe('hour');
    expect(day.labels).toHaveLength(24);
    expect(day.datasets.pageviews[10]).toBe(3);
    expect(day.datasets.pageviews[23]).toBe(1);
    expect(day.datasets.pageviews.reduce((a: number, b: number) => a + b, 0)).toBe(4);
    const week = await data('insights', { date_start: '2026-01-05', date_end: '2026-01-18', group_by: 'week', metrics: 'pageviews,visitors' });
    expect(week.labels).toEqual(['2026-01-05', '2026-01-12']);
    expect(week.datasets).toEqual({ pageviews: [4, 10], visitors: [3, 4] });
    const month = await data('insights', { date_start: '2025-12-01', date_end: '2026-01-31', group_by: ['month'], metrics: ['pageviews'] });
    expect(month.labels).toEqual(['2025-12', '2026-01']);
    expect(month.datasets.pageviews).toEqual([0, 14]);
  });

  it.each([
    [{ page_url: '/pricing' }, { pageviews: 4, visitors: 3, sessions: 4 }],
    [{ device: 'mobile' }, { pageviews: 3, visitors: 1, sessions: 2 }],
    [{ browser: 'Chrome' }, { pageviews: 5, visitors: 1, sessions: 2 }],
    [{ platform: 'iOS' }, { pageviews: 3, visitors: 1, sessions: 2 }],
    [{ country: 'NL' }, { pageviews: 6, visitors: 2, sessions: 3 }],
    [{ country_code: 'DE' }, { pageviews: 3, visitors: 1, sessions: 2 }],
    [{ region: 'North Holland' }, { pageviews: 1, visitors: 1, sessions: 1 }],
    [{ city: 'Amsterdam' }, { pageviews: 1, visitors: 1, sessions: 1 }],
    [{ referrer: 'https://www.google.com/' }, { pageviews: 4, visitors: 2, sessions: 2 }],
    [{ host: 'shop.example.com' }, { pageviews: 2, visitors: 1, sessions: 1 }],
    [{ page_type: 'front-page' }, { pageviews: 3, visitors: 2, sessions: 3 }],
    [{ goal: '1' }, { pageviews: 2, visitors: 2, sessions: 2 }],
    [{ device: 'desktop', page_url: '/pricing' }, { pageviews: 3, visitors: 2, sessions: 3 }],
  ])('filters by %j', async (filters, expected) => {
    const body = await data('compare', { ...CURRENT, metrics: ['pageviews', 'visitors', 'sessions'], filters: JSON.stringify(filters) });
    expect(body.current).toEqual(expected);
  });

  it('accepts filters as an array, a JSON string and a comma-separated string', async () => {
    const metrics = 'pageviews';
    const forms = [
      [{ key: 'device', value: 'mobile' }, { key: 'page_url', value: '/pricing' }],
      JSON.stringify([{ key: 'device', value: 'mobile' }, { key: 'page_url', value: '/pricing' }]),
      'device:mobile,page_url:/pricing',
      ['device:mobile', 'page_url:/pricing'],
    ];
    for (const filters of forms) expect((await data('compare', { ...CURRENT, metrics, filters })).current).toEqual({ pageviews: 1 });
  });

  it('takes an operator and several values per filter, in the array and the object form', async () => {
    const pageviews = async (filters: unknown) => (await data('compare', { ...CURRENT, metrics: 'pageviews', filters: JSON.stringify(filters) })).current.pageviews;
    expect(await pageviews([{ key: 'page_url', value: ['/', '/blog/post-1'] }])).toBe(5);
    expect(await pageviews([{ key: 'page_url', operator: 'is', value: '/pricing' }])).toBe(4);
    expect(await pageviews([{ key: 'page_url', operator: 'is_not', value: ['/pricing', '/'] }])).toBe(2);
    expect(await pageviews({ page_url: { operator: 'contains', value: ['blog', 'pric'] } })).toBe(6);
    expect(await pageviews({ page_url: { operator: 'not_contains', value: 'blog' }, device: 'mobile' })).toBe(2);
    expect(await pageviews([{ key: 'page_url', operator: 'contains', value: '/' }, { key: 'page_url', operator: 'is_not', value: '/' }])).toBe(6);
    const rows = await data('datatable/pages', { ...CURRENT, filters: JSON.stringify({ device: { operator: 'is_not', value: 'desktop' } }) });
    expect(rows.map((r: { page_url: string; pageviews: number }) => [r.page_url, r.pageviews]).sort()).toEqual([['/', 1], ['/blog/post-1', 1], ['/pricing', 1]]);
  });

  it('refuses a malformed operator filter with a 400 naming it', async () => {
    const refusal = async (filters: unknown) => {
      const res = await api.get(`${tk.api}/data/compare`, { query: { ...CURRENT, filters: JSON.stringify(filters) } });
      return { status: res.status, code: res.body.code, field: res.body.data?.field, message: res.body.message };
    };
    expect(await refusal([{ key: 'page_url', operator: 'starts_with', value: '/' }])).toEqual({
      status: 400, code: 'svc_invalid_filter', field: 'filters', message: 'Filter page_url: operator must be one of is, is_not, contains, not_contains.',
    });
    expect(await refusal({ page_url: { operator: 'contains' } })).toMatchObject({ status: 400, code: 'svc_invalid_filter', message: 'Filter page_url must be a text value or {operator, value}.' });
    expect(await refusal({ page_url: { operator: 'contains', value: [['x']] } })).toMatchObject({ status: 400, code: 'svc_invalid_filter' });
    expect(await refusal({ page_url: { operator: 'contains', value: Array.from({ length: 21 }, (_, i) => `/${i}`) } })).toMatchObject({
      status: 400, code: 'svc_invalid_filter', message: 'Filter page_url has more than 20 values.',
    });
    expect(await refusal({ status: { operator: 'is_not', value: '404' } })).toMatchObject({ status: 400, code: 'svc_invalid_filter' });
    expect(await refusal({ status: ['404', '200'] })).toMatchObject({ status: 400, code: 'svc_invalid_filter' });
  });

  it('lists pages, referrers, countries and not-found pages', async () => {
    expect(await data('datatable/pages', CURRENT)).toEqual([
      { page_url: '/pricing', pageviews: 4, sessions: 4, bounce_rate: 25, avg_time_on_page: 43.75 },
      { page_url: '/', pageviews: 3, sessions: 3, bounce_rate: 0, avg_time_on_page: 18.33 },
      { page_url: '/blog/post-1', pageviews: 2, sessions: 2, bounce_rate: 50, avg_time_on_page: 10 },
    ]);
    expect(await data('datatable/referrers', { ...CURRENT, metrics: 'sessions' })).toEqual([
      { referrer: '', sessions: 2 },
      { referrer: 'https://www.google.com/', sessions: 2 },
      { referrer: 'https://t.co/', sessions: 1 },
    ]);
    expect(await data('datatable/countries', { ...CURRENT, metrics: 'pageviews,visitors' })).toEqual([
      { country: 'NL', pageviews: 6, visitors: 2 },
      { country: 'DE', pageviews: 3, visitors: 1 },
    ]);
    expect(await data('datatable/not-found-pages', { ...CURRENT, filters: { status: '200' } })).toEqual([
      { page_url: '/missing', pageviews: 1 },
      { page_url: '/old-link', pageviews: 1 },
    ]);
    expect(await data('datatable/pages', { ...CURRENT, metrics: 'pageviews', limit: '1' })).toEqual([{ page_url: '/pricing', pageviews: 4 }]);
  });

  it('answers devices with shares and goals with their conversions', async () => {
    expect(await data('devices', CURRENT)).toEqual([
      { device: 'desktop', sessions: 3, pageviews: 6, share: 60 },
      { device: 'mobile', sessions: 2, pageviews: 3, share: 40 },
    ]);
    expect(await data('devices', { ...CURRENT, group_by: 'browser', metrics: 'pageviews' })).toEqual([
      { browser: 'Chrome', pageviews: 5, share: 55.56 },
      { browser: 'Safari', pageviews: 3, share: 33.33 },
      { browser: 'Firefox', pageviews: 1, share: 11.11 },
    ]);
    expect(await data('goals', CURRENT)).toEqual([
      { goal_id: 1, title: 'Saw <b>pricing</b>', type: 'visits', status: 'active', conversion_metric: 'visitors', conversions: 2, conversion_rate: 66.67 },
      { goal_id: 2, title: 'Newsletter', type: 'clicks', status: 'active', conversion_metric: 'visitors', conversions: 0, conversion_rate: 0 },
    ]);
  });

  it('reports today and the live visitors', async () => {
    const clock = tk.clock as ManualClock;
    const [sessionId] = await tk.kernel.db.select<{ ID: number }>(`SELECT ID FROM ${tk.kernel.db.quote(tk.kernel.db.table('sessions'))} ORDER BY ID LIMIT 1`);
    await insertPageview(tk.kernel.db, Number(sessionId!.ID), 'H', clock.unix() - 60, { url: '/today', top: 10 });
    await insertPageview(tk.kernel.db, Number(sessionId!.ID), 'I', clock.unix() - 1200, { url: '/today', top: 0 });
    expect(await data('live-visitors')).toEqual({ count: 1 });
    const today = await data('today');
    expect(today).toMatchObject({ date: '2026-01-20', live: 1, metrics: { visitors: 2, pageviews: 2 }, top_page: { page_url: '/today', pageviews: 2 } });
  });

  it('exports every datatable as CSV with formula cells neutralised', async () => {
    const [session] = await tk.kernel.db.select<{ ID: number }>(`SELECT ID FROM ${tk.kernel.db.quote(tk.kernel.db.table('sessions'))} ORDER BY ID LIMIT 1`);
    const evil = await insertPageview(tk.kernel.db, Number(session!.ID), 'A', at('2026-01-13T12:00'), { url: '=HYPERLINK("http://evil")', top: 0 });
    const res = await api.get(`${tk.api}/data/datatable/pages`, { query: { ...CURRENT, metrics: 'pageviews', format: 'csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="pages-2026-01-12-2026-01-14.csv"');
    expect(res.text).toBe('page_url,pageviews\r\n/pricing,4\r\n/,3\r\n/blog/post-1,2\r\n"\'=HYPERLINK(""http://evil"")",1\r\n');
    const notFound = await api.get(`${tk.api}/data/datatable/not-found-pages`, { query: { ...CURRENT, format: 'csv' } });
    expect(notFound.text).toBe('page_url,pageviews\r\n/missing,1\r\n/old-link,1\r\n');
    await tk.kernel.db.execute(`DELETE FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))} WHERE ID = ?`, [evil]);
  });

  it('refuses what the allow-lists do not name, and drops unknown metrics', async () => {
    const expectError = async (path: string, query: Record<string, unknown>, status: number, code: string) => {
      const res = await api.get(`${tk.api}/data/${path}`, { query });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status, code });
      expect(res.body.success).toBe(false);
    };
    await expectError('compare', { ...CURRENT, filters: '{"page_url) OR 1=1 --":"x"}' }, 400, 'svc_invalid_filter');
    await expectError('compare', { ...CURRENT, filters: 'nonsense' }, 400, 'svc_invalid_filter');
    await expectError('compare', { ...CURRENT, filters: '{"status":"500"}' }, 400, 'svc_invalid_filter');
    await expectError('compare', { ...CURRENT, filters: '[{"key":' }, 400, 'svc_invalid_filter');
    await expectError('compare', { ...CURRENT, filters: { page_url: 'x'.repeat(300) } }, 400, 'svc_invalid_filter');
    await expectError('insights', { ...CURRENT, group_by: 'page_url' }, 400, 'svc_invalid_group_by');
    await expectError('insights', { ...CURRENT, compare: 'decade' }, 400, 'svc_invalid_param');
    await expectError('insights', { ...CURRENT, compare: ['previous', 'year'] }, 400, 'svc_invalid_param');
    await expectError('insights', { ...CURRENT, group_by: 'day; DROP TABLE x' }, 400, 'svc_invalid_group_by');
    await expectError('insights', { date_start: '2020-01-01', date_end: '2026-01-01', group_by: 'hour' }, 400, 'svc_invalid_group_by');
    await expectError('datatable/pages', { ...CURRENT, group_by: 'device' }, 400, 'svc_invalid_group_by');
    await expectError('compare', { date_start: '2026-02-30', date_end: '2026-03-01' }, 400, 'svc_invalid_date');
    await expectError('compare', { date_start: '12/01/2026' }, 400, 'svc_invalid_date');
    await expectError('compare', { date_start: '2026-01-14', date_end: '2026-01-12' }, 400, 'svc_invalid_date');
    await expectError('compare', { date_start: '2000-01-01', date_end: '2026-01-12' }, 400, 'svc_invalid_date');
    await expectError('datatable/pages', { ...CURRENT, limit: '0' }, 400, 'svc_invalid_param');
    await expectError('datatable/pages', { ...CURRENT, format: 'xml' }, 400, 'svc_invalid_param');
    await expectError('compare', { date_start: ['2026-01-12', '2026-01-13'] }, 400, 'svc_invalid_date');
    await expectError('compare', { ...CURRENT, metrics: { a: 'pageviews' } }, 400, 'svc_invalid_param');
    await expectError('compare', { ...CURRENT, metrics: '["pageviews", 5]' }, 400, 'svc_invalid_param');
    await expectError('compare', { ...CURRENT, filters: { page_url: { nested: 'x' } } }, 400, 'svc_invalid_filter');
    await expectError('compare', { ...CURRENT, filters: [{ value: 'x' }] }, 400, 'svc_invalid_filter');
    await expectError('datatable/pages', { ...CURRENT, limit: 'abc' }, 400, 'svc_invalid_param');
    await expectError('datatable/pages', { ...CURRENT, format: ['csv', 'json'] }, 400, 'svc_invalid_param');
    await expectError('datatable/nope', CURRENT, 404, 'svc_unknown_datatable');
    await expectError('datatable', CURRENT, 403, 'svc_forbidden');
    await expectError('nope', CURRENT, 404, 'svc_unknown_data_type');
    const dropped = await data('compare', { ...CURRENT, metrics: ['pageviews', 'revenue', 'SLEEP(5)'] });
    expect(dropped.current).toEqual({ pageviews: 9 });
    const defaults = await data('compare', { ...CURRENT, metrics: 'nothing_known' });
    expect(Object.keys(defaults.current)).toHaveLength(8);
  });

  it('rebuilds the summaries through `svc statistics rebuild`', async () => {
    const command = tk.kernel.commands.get('statistics')!;
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), progress: () => undefined };
    expect(await command.run(['rebuild'], io)).toBe(0);
    expect(out).toEqual(['rebuilt the summaries of 10 days']);
    expect(await command.run(['nope'], io)).toBe(2);
    expect(out[1]).toBe('usage: svc statistics rebuild');
    expect((await data('compare', CURRENT)).current).toMatchObject({ visitors: 3, pageviews: 9, sessions: 5 });
  });

  it('needs the view capability', async () => {
    expect((await tk.client().get(`${tk.api}/data/compare`)).status).toBe(401);
    expect((await tk.client().get(`${tk.api}/data/datatable/pages`)).status).toBe(401);
    await tk.kernel.users.create({ login: 'viewer', role: 'editor', password: 'editor-password' });
    const editor = (await tk.kernel.users.findByLogin('viewer'))!;
    const basic = tk.client().withBasic('viewer', (await tk.kernel.appPasswords.create(editor, 'x')).password);
    expect((await basic.get(`${tk.api}/data/compare`, { query: CURRENT })).status).toBe(200);
  });
});
