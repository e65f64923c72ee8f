import { ManualClock } from '../../../core';
import { NOW, TZ, at, loadTraffic } from '../../../core/statistics/test/traffic';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

const CURRENT = { date_start: '2026-01-12', date_end: '2026-01-14' };

/** Query strings set on pageviews of the traffic set (time, page): A's '/' and '/pricing' on the 12th, C's '/pricing' and A's '/pricing' on the 13th and 14th. */
const TAGGED: Array<[string, string, string]> = [
  ['2026-01-12T10:00', '/', 'utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=web+analytics&utm_content=banner'],
  ['2026-01-12T10:01', '/pricing', 'utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=privacy%20analytics&utm_content=text'],
  ['2026-01-13T15:00', '/pricing', 'utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=web+analytics&utm_content=text'],
  ['2026-01-14T09:02', '/pricing', 'utm_source=news&utm_campaign=spring&utm_content=banner'],
];

describe('UTM term and content', () => {
  let tk: TestKernel;
  let api: HttpClient;
  const campaigns = async (query: Record<string, unknown>) => {
    const res = await api.get(`${tk.api}/data/datatable/campaigns`, { query: { ...CURRENT, metrics: 'sessions,pageviews', ...query } });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return res.body.data;
  };

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['sources'], clock: new ManualClock(NOW), env: { SVC_TIMEZONE: TZ, SVC_LICENSE: 'creator' } });
    const db = tk.kernel.db;
    await loadTraffic(db);
    for (const [time, page, parameters] of TAGGED) {
      await db.execute(`UPDATE ${db.quote(db.table('statistics'))} SET parameters = ? WHERE time = ? AND page_url = ?`, [parameters, at(time), page]);
    }
    await tk.kernel.hooks.doAction('svc_every_hour');
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    api = tk.client().withBasic('admin', (await tk.kernel.appPasswords.create(admin, 'tests')).password);
  });
  afterAll(() => tk.close());

  it('groups by term and by content (a pageview without the field is no row)', async () => {
    expect(await campaigns({ group_by: 'term' })).toEqual([
      { term: 'web analytics', sessions: 2, pageviews: 2 },
      { term: 'privacy analytics', sessions: 1, pageviews: 1 },
    ]);
    expect(await campaigns({ group_by: 'content' })).toEqual([
      { content: 'banner', sessions: 2, pageviews: 2 },
      { content: 'text', sessions: 2, pageviews: 2 },
    ]);
  });

  it('filters by term and content with every operator', async () => {
    const filtered = (filters: unknown[]) => campaigns({ group_by: 'source', metrics: 'pageviews', filters: JSON.stringify(filters) });
    expect(await filtered([{ key: 'utm_term', value: 'web analytics' }])).toEqual([{ source: 'google', pageviews: 2 }]);
    expect(await filtered([{ key: 'utm_term', operator: 'contains', value: ['privacy'] }])).toEqual([{ source: 'google', pageviews: 1 }]);
    expect(await filtered([{ key: 'utm_content', operator: 'is_not', value: ['text'] }])).toEqual([
      { source: 'google', pageviews: 1 },
      { source: 'news', pageviews: 1 },
    ]);
    expect(await filtered([{ key: 'content', operator: 'not_contains', value: ['ban'] }, { key: 'term', operator: 'is', value: ['web analytics', 'privacy analytics'] }])).toEqual([
      { source: 'google', pageviews: 2 },
    ]);
  });
});
